import StrokeImage

/// Why a dataset could not be loaded or split. Messages name the folder, file or class.
public enum DatasetError: Error, CustomStringConvertible, Sendable {
    /// The root folder does not exist.
    case rootNotFound(path: String)
    /// The root path is a file, not a folder.
    case rootNotAFolder(path: String)
    /// The root folder has no (non-hidden) subfolders.
    case noClasses(root: String)
    /// A class folder holds no `.png` files.
    case emptyClass(className: String, folder: String)
    /// Every PNG of a class was skipped as unreadable (with `skipBad`).
    case noReadableImages(className: String, skipped: Int)
    /// A file could not be read as a PNG; `file` is relative to the root (`class/name.png`).
    case badImage(file: String, underlying: PNGError)
    /// The root or a class folder could not be listed.
    case unlistableFolder(path: String, reason: String)
    /// A validation fraction outside [0, 1).
    case invalidValidationFraction(Double)
    /// A fold count below 2 or above the smallest class's size.
    case invalidFoldCount(Int, smallestClass: String, smallestCount: Int)

    public var description: String {
        switch self {
        case .rootNotFound(let path):
            return "\(path): dataset folder not found; hint: pass the folder that holds one subfolder per class"
        case .rootNotAFolder(let path):
            return "\(path): is a file, not a folder; hint: pass the folder that holds one subfolder per class"
        case .noClasses(let root):
            return "\(root): no class folders found; expected ROOT/<class>/*.png, e.g. \(root)/circle/0001.png"
        case .emptyClass(let className, let folder):
            return "class '\(className)' (\(folder)) has no .png files"
        case .noReadableImages(let className, let skipped):
            return "class '\(className)' has no readable images: all \(skipped) PNG files were skipped as bad"
        case .badImage(let file, let underlying):
            // PNGError's message starts with the source, which is `file` here.
            return "\(underlying)" + (underlying.source == file ? "" : " (in \(file))")
                + "; hint: fix or remove the file, or pass skipBad / --skip-bad to skip it with a warning"
        case .unlistableFolder(let path, let reason):
            return "\(path): cannot list the folder (\(reason))"
        case .invalidValidationFraction(let fraction):
            return "validation fraction \(fraction) is outside [0, 1); e.g. 0.2 keeps a fifth of each class for validation"
        case .invalidFoldCount(let k, let smallestClass, let smallestCount):
            return "cannot make \(k) folds: need 2 <= k <= \(smallestCount), the size of the smallest class '\(smallestClass)'"
        }
    }
}

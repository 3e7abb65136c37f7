import StrokeKit

/// Builds the Core ML model of an exported network: a neural-network classifier.
///
/// Input `image`: a 28x28 grayscale image (8-bit, white ink on black), scaled by the
/// preprocessing to pixel/255 in [0, 1], exactly StrokeKit's input. Layers in the network's
/// order (convolution with explicit symmetric padding, ReLU, 2x2 max pooling, channel-first
/// flatten, inner product), then a softmax whose output `classProbabilities` is the
/// classifier's per-class probability dictionary; `classLabel` is the most probable class.
/// Core ML's image input puts the image in (C, H, W), the same order as StrokeKit's
/// (N, C, H, W) minus the batch, and its weight layouts are PyTorch's, so weights are
/// copied unchanged (the check script's NumPy interpreter proves it).
enum CoreMLExport {
    /// Core ML specification version 4: iOS 13, macOS 10.15 (every layer used here is older).
    static let specificationVersion: Int32 = 4
    static let inputName = "image"
    static let labelName = "classLabel"
    static let probabilitiesName = "classProbabilities"
    static let logitsName = "logits"

    static func model(of exporter: ModelExporter, graph: ExportGraph, metadata: ExportMetadata) -> CoreML_Specification_Model {
        let network = exporter.model.network
        let classes = exporter.model.metadata.classes
        var layers: [CoreML_Specification_NeuralNetworkLayer] = []
        var current = inputName
        var poolCount = 0
        func append(_ name: String, _ kind: CoreML_Specification_NeuralNetworkLayer.OneOf_Layer) {
            var layer = CoreML_Specification_NeuralNetworkLayer()
            layer.name = name
            layer.input = [current]
            layer.output = [name]
            layer.layer = kind
            layers.append(layer)
            current = name
        }
        for operation in graph.operations {
            switch operation {
            case let .convolution(name, inputChannels, outputChannels, kernelSize, weight, bias):
                var conv = CoreML_Specification_ConvolutionLayerParams()
                conv.outputChannels = UInt64(outputChannels)
                conv.kernelChannels = UInt64(inputChannels)
                conv.nGroups = 1
                conv.kernelSize = [UInt64(kernelSize), UInt64(kernelSize)]
                conv.stride = [1, 1]
                conv.dilationFactor = [1, 1]
                conv.valid = validPadding(UInt64((kernelSize - 1) / 2))
                conv.hasBias_p = true  // the field hasBias (the generator adds _p: `hasBias` tests for the bias message)
                conv.weights.floatValue = weight
                conv.bias.floatValue = bias
                append(name, .convolution(conv))
            case .relu:
                var activation = CoreML_Specification_ActivationParams()
                activation.reLu = CoreML_Specification_ActivationReLU()
                append("\(current)_relu", .activation(activation))
            case .maxPool:
                poolCount += 1
                var pool = CoreML_Specification_PoolingLayerParams()
                pool.type = .max
                pool.kernelSize = [2, 2]
                pool.stride = [2, 2]
                pool.valid = validPadding(0)
                append("pool\(poolCount)", .pooling(pool))
            case .flatten:
                var flatten = CoreML_Specification_FlattenLayerParams()
                flatten.mode = .channelFirst
                append("flatten", .flatten(flatten))
            case let .dense(name, inputs, outputs, weight, bias):
                var dense = CoreML_Specification_InnerProductLayerParams()
                dense.inputChannels = UInt64(inputs)
                dense.outputChannels = UInt64(outputs)
                dense.hasBias_p = true
                dense.weights.floatValue = weight
                dense.bias.floatValue = bias
                append(name, .innerProduct(dense))
            }
        }
        layers[layers.count - 1].output = [logitsName]
        current = logitsName
        append(probabilitiesName, .softmax(CoreML_Specification_SoftmaxLayerParams()))

        var scaler = CoreML_Specification_NeuralNetworkImageScaler()
        scaler.channelScale = ModelInput.scale  // so the app's 8-bit image becomes exactly StrokeKit's input
        scaler.grayBias = 0
        var preprocessing = CoreML_Specification_NeuralNetworkPreprocessing()
        preprocessing.featureName = inputName
        preprocessing.scaler = scaler

        var classifier = CoreML_Specification_NeuralNetworkClassifier()
        classifier.layers = layers
        classifier.preprocessing = [preprocessing]
        var labels = CoreML_Specification_StringVector()
        labels.vector = classes
        classifier.stringClassLabels = labels
        classifier.labelProbabilityLayerName = probabilitiesName

        var image = CoreML_Specification_ImageFeatureType()
        image.width = Int64(network.inputWidth)
        image.height = Int64(network.inputHeight)
        image.colorSpace = .grayscale
        var probabilities = CoreML_Specification_DictionaryFeatureType()
        probabilities.stringKeyType = CoreML_Specification_StringFeatureType()

        var description = CoreML_Specification_ModelDescription()
        description.input = [feature(
            inputName, .imageType(image),
            "28x28 grayscale drawing, white ink on black (aspect-fit the stroke's bounding box, as StrokeKit does)")]
        description.output = [
            feature(labelName, .stringType(CoreML_Specification_StringFeatureType()),
                    "the most probable class (apply the reject rule in the metadata)"),
            feature(probabilitiesName, .dictionaryType(probabilities), "probability of every class"),
        ]
        description.predictedFeatureName = labelName
        description.predictedProbabilitiesName = probabilitiesName
        var modelMetadata = CoreML_Specification_Metadata()
        modelMetadata.shortDescription = ExportMetadata.summary(of: exporter.model)
        modelMetadata.author = "StrokeKit"
        modelMetadata.versionString = exporter.model.metadata.architecture
        modelMetadata.userDefined = Dictionary(uniqueKeysWithValues: metadata.entries.map { ($0.key, $0.value) })
        description.metadata = modelMetadata

        var model = CoreML_Specification_Model()
        model.specificationVersion = specificationVersion
        model.description_p = description
        model.neuralNetworkClassifier = classifier
        return model
    }

    /// 'valid' padding with `amount` zeros on each side of height and width.
    private static func validPadding(_ amount: UInt64) -> CoreML_Specification_ValidPadding {
        var edge = CoreML_Specification_BorderAmounts.EdgeSizes()
        edge.startEdgeSize = amount
        edge.endEdgeSize = amount
        var padding = CoreML_Specification_ValidPadding()
        padding.paddingAmounts.borderAmounts = [edge, edge]  // height, then width
        return padding
    }

    private static func feature(_ name: String, _ type: CoreML_Specification_FeatureType.OneOf_Type,
                                _ description: String) -> CoreML_Specification_FeatureDescription {
        var feature = CoreML_Specification_FeatureDescription()
        feature.name = name
        feature.shortDescription = description
        feature.type.type = type
        return feature
    }
}

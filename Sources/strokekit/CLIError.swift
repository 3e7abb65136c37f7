/// An error the CLI reports as `Error: <message>` with a non-zero exit.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

import ArgumentParser
import ElevateBenchmarkKit

/// A size given on the command line (`100MB`, `64 KiB`, `1.5gb`, `4096`), parsed by the
/// benchmark kit's ``DocumentSize`` so that `generate` and `bench` read sizes the same way.
typealias ByteSize = DocumentSize

extension DocumentSize: ExpressibleByArgument {
    /// Parses a size argument; nil makes ArgumentParser report a usage error.
    public init?(argument: String) {
        self.init(argument)
    }
}

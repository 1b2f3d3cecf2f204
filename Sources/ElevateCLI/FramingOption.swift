import ArgumentParser
import Elevate

/// `--framing`: how the values of the input are laid out, as the library's `JSONFraming` names
/// them; jq reads a stream of values, and these read it the same way.
struct FramingOption: ParsableArguments {
    /// The layouts the tool reads.
    enum Framing: String, ExpressibleByArgument, CaseIterable {
        /// One JSON document.
        case json
        /// One value per line.
        case jsonLines = "json-lines"
        /// Values one after another, with or without whitespace between them.
        case concatenated
        /// RFC 7464: each value after a record separator (0x1E).
        case jsonSeq = "json-seq"
    }

    @Option(
        name: .customLong("framing"),
        help: ArgumentHelp(
            "How the input's values are laid out: json (one document, the default), json-lines (a value per line), concatenated (values one after another, as jq reads them), json-seq (RFC 7464 record separators).",
            valueName: "framing"))
    var framing = Framing.json

    /// The library's framing of a stream of values; nil for one document.
    var sequenceFraming: JSONFraming? {
        switch framing {
        case .json: nil
        case .jsonLines: .jsonLines
        case .concatenated: .concatenated
        case .jsonSeq: .jsonTextSequence
        }
    }
}

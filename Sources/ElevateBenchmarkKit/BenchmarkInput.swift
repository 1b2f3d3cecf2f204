import Foundation

/// A document ready for the contenders: its bytes in memory and the same bytes in a file.
///
/// Made by ``BenchmarkDocument/prepare(in:)``.
public struct BenchmarkInput: Sendable {
    /// The document's name.
    public var name: String
    /// The file holding ``data``, for contenders that read files (``Contender/readsFile``) and for
    /// child processes.
    public var file: URL
    /// The whole document.
    public var data: Data
    /// Whether the people contenders apply.
    public var isPeopleShaped: Bool
    /// The number of people, when known in advance (generated or detected), which every contender
    /// that ``Contender/countsElements`` must decode.
    public var expectedElementCount: Int?
    /// Why a file was found not to be people-shaped, when it was checked.
    public var notPeopleReason: String?
    /// For a people document: the same people as JSON Lines, one per line, for the JSON Lines
    /// contenders. Written by ``BenchmarkDocument/prepare(in:)``.
    public var jsonLinesFile: URL?

    /// Creates an input; with an `expectedElementCount` it is people-shaped.
    /// - Parameters:
    ///   - name: See ``name``.
    ///   - file: See ``file``.
    ///   - data: See ``data``.
    ///   - expectedElementCount: See ``expectedElementCount``.
    ///   - isPeopleShaped: See ``isPeopleShaped``.
    ///   - notPeopleReason: See ``notPeopleReason``.
    public init(
        name: String, file: URL, data: Data, expectedElementCount: Int?, isPeopleShaped: Bool? = nil,
        notPeopleReason: String? = nil
    ) {
        self.name = name
        self.file = file
        self.data = data
        self.expectedElementCount = expectedElementCount
        self.isPeopleShaped = isPeopleShaped ?? (expectedElementCount != nil)
        self.notPeopleReason = notPeopleReason
    }

    /// The contenders that apply to this input, in report order.
    public var contenders: [Contender] { Contender.applicable(toPeopleDocument: isPeopleShaped, named: name) }
}

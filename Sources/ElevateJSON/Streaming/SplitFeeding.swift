/// A reader of chunks that may split an array over workers (see ``SplitArrayReader``): what a
/// pass feeds instead of its parser.
package protocol SplitFeeding: AnyObject {
    /// Reads the next chunk of input.
    func feed(_ chunk: UnsafeRawBufferPointer) throws
    /// Ends the input, before the parser is finished.
    func finish() throws
    /// The input failed (a read error, damaged gzip) after the chunks fed so far: what is held
    /// is parsed as far as it goes, as one thread has parsed it when it meets the failure, and
    /// nothing is finished.
    func inputFailed() throws
    /// Before the input waits: the complete elements held go to the workers (see
    /// ``SplitArrayReader/handOverCompleteElements()``).
    func handOverCompleteElements() throws
    /// Whether the body stopped the stream.
    var isStopped: Bool { get }
}

/// Counts the top-level values of concatenated JSON and every value inside them (nested ones
/// included, keys not), checking each as ``ValueSequencePass`` reads them: what `elevate validate`
/// and `elevate count` do with `--framing concatenated`. Nothing is built, so a value of any size
/// passes.
///
/// The input is read as runs of whole values (``readValueRuns(of:options:rest:whenInputWaits:work:take:)``),
/// each counted by the event layer alone (``SplitValuesRun/count()``), on the workers, or on the
/// calling thread as it is cut with ``StreamingOptions/concurrency`` 1. The counts and the first
/// error are one thread's, as ``SplitValuesReader`` makes the values'. Input that cannot be cut
/// (comments allowed, see ``ValuesRunCutter/canCut(_:)``) is read by a ``ValueSequencePass``.
/// - Returns: The top-level values, and the values in all of them.
/// - Throws: As ``forEachValue`` for bad input: with ``StreamingOptions/wrapsErrorsInParserError``
///   false, a ``JSONSyntaxError`` whose position is the input's, or a ``JSONInputError``.
package func countConcatenatedValues(in input: JSONInput, options: StreamingOptions) throws -> (
    values: Int, nested: Int
) {
    guard ValuesRunCutter.canCut(options.parsing) else {
        let counter = ValueCounter()
        let values = try ValueSequencePass(framing: .concatenated, keyPath: "", to: counter).run(input, options: options)
        return (values, counter.count)
    }
    var totals = SplitRun.Counts()
    /// What the calling thread counts where a value too long for a run stops the cutting, over
    /// every such stretch: each ends between two values.
    let restCounter = DepthCounter(countedDepth: 0)
    try readValueRuns(
        of: input, options: options,
        rest: { piece in ValuesRunParser(piece, handler: restCounter, options: options) }, work: { $0.count() },
        take: { totals.add(try $0.get()) })
    totals.add(SplitRun.Counts(values: restCounter.values, elements: restCounter.elements))
    return (totals.elements, totals.values)
}

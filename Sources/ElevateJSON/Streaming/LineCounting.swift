/// Counts the values of JSON Lines (the lines that hold one) and every value inside them (nested
/// ones included, keys not), checking each line as ``forEachValue`` reads it: what `elevate
/// validate` and `elevate count` do with `--json-lines`; or, with `framing`, the records of a JSON
/// text sequence. Nothing is built, so a line of any length passes.
///
/// The calling thread cuts the input into runs of whole lines (``readLineRuns(of:options:rest:work:take:)``),
/// and each run is counted straight from YAJL's callbacks where its lines are surely valid (see
/// ``CallbackValueCounter/countLines(_:options:)``), else line by line through the event layer.
/// With ``StreamingOptions/concurrency`` above 1 workers count the runs, as ``SplitLinesReader``
/// splits the lines it decodes; with 1 the calling thread counts each run as it is cut. The counts
/// and the first error are one thread's.
/// - Returns: The lines that hold a value, and the values in all of them.
/// - Throws: As ``forEachValue`` for bad input: with ``StreamingOptions/wrapsErrorsInParserError``
///   false, a ``JSONSyntaxError`` whose line and column are the input's, or a ``JSONInputError``.
package func countLines(
    in input: JSONInput, framing: JSONFraming = .jsonLines, options: StreamingOptions
) throws -> (lines: Int, values: Int) {
    var totals = (lines: 0, values: 0)
    // A line longer than a run may hold, the calling thread reads itself: every such line.
    let counter = ValueCounter()
    let rest = JSONLinesParser(handler: counter, options: options.parsing, separator: framing.separator)
    try readLineRuns(of: input, framing: framing, options: options, rest: rest, work: { $0.count() }) { outcome in
        let counts = try outcome.get()
        totals.lines += counts.lines
        totals.values += counts.values
    }
    return (totals.lines + rest.valueCount, totals.values + counter.count)
}

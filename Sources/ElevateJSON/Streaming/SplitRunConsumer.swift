/// Where the runs of a split array go: their elements' delivery (``ElementDelivery``), or a
/// count of their values (``SplitRunCounter``).
protocol SplitRunConsumer: AnyObject {
    /// Takes the next run, in document order.
    /// - Throws: ``JSONEventParser/Stop`` when the body stopped the stream; the first error of
    ///   the runs taken so far.
    func take(_ run: SplitRun) throws

    /// Starts a long element on the calling thread from `run` (see ``SplitTail``).
    func startTail(from run: SplitRun) -> SplitTail

    /// Takes what the tail found once it ended (at the array's end, or where the cutting resumes).
    func endTail(_ tail: SplitTail, of run: SplitRun)

    /// Whether the array's cutting may be put off while the stream's parser reads a long element
    /// of it, so that the long containers inside that element are split in turn (see
    /// ``SplitArrayReader``): only where the array's elements are counted, not delivered or
    /// written, which only a worker or a tail does.
    var countsOnly: Bool { get }

    /// The stream's parser read a stand-in in this array, to stand after an element (see
    /// ``SplitArrayReader``): one value, and one element, that the input does not hold, which the
    /// count takes back. Only a consumer that ``countsOnly`` is told of one.
    func noteStandIn()
}

extension ElementDelivery: SplitRunConsumer {
    func startTail(from run: SplitRun) -> SplitTail {
        run.startTail { [unowned self] index, element in
            do {
                try take(element, at: index, place: nil)
            } catch is JSONEventParser.Stop {
                // The tail's parser stops; the stream learns it here, as from a run.
                noteStopOutsideParser()
                throw JSONEventParser.Stop()
            } catch {
                // Taking an element delivers what the workers finished: an error of a run before
                // the tail, whose position was moved to the input already (found by the
                // differential test: moved again, its offset and line doubled).
                throw SplitTail.EarlierRunFailed(error: error)
            }
        }
    }

    func endTail(_ tail: SplitTail, of run: SplitRun) {}

    var countsOnly: Bool { false }

    func noteStandIn() {}

    func take(_ run: SplitRun) throws {
        do {
            try takeText(count: run.expectedCount, at: run.firstIndex) { each in run.parse(each) }
        } catch is JSONEventParser.Stop {
            noteStopOutsideParser()
            throw JSONEventParser.Stop()
        }
    }
}

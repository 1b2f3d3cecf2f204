/// Where decoded values go, in document order, and whether the one who takes them keeps them.
///
/// The difference matters for values decoded on workers: a value's strings and arrays were last
/// written by the worker that made them, so every retain or release of them on the calling thread
/// pulls that memory across cores. A receiver that keeps each value takes it over by a move (no
/// retain, and the release comes later, wherever the value ends); one that drops each value after
/// its call (a body) borrows it where the worker left it, and the worker destroys it afterwards.
enum ValueReceiver<Value> {
    /// Each value is moved to a receiver that keeps it: an array being gathered.
    case keeping((consuming Value) throws -> Void)
    /// Each value is lent for the call only: a body, which copies what it keeps.
    case borrowing((borrowing Value) throws -> Void)
}

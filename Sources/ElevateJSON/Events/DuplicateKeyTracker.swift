/// The keys of every open object, for ``JSONParsingOptions/rejectsDuplicateKeys``: a key seen
/// twice in one object is reported at its second occurrence.
///
/// Only parsers asked to reject repeated keys have one, so the usual parse pays nothing for it.
/// Keys are kept as their unescaped bytes in one ``KeyBytesSet`` per open object; a set is emptied
/// and kept for reuse when its object ends, so objects of similar size allocate nothing after the
/// first.
final class DuplicateKeyTracker {
    // Touched on every key and object event, by the parsing thread only.
    @exclusivity(unchecked) private var open: [KeyBytesSet] = []
    @exclusivity(unchecked) private var depth = 0

    /// An object begins.
    func startObject() {
        if depth == open.count { open.append(KeyBytesSet()) }
        depth += 1
    }

    /// The current object ends.
    func endObject() {
        depth -= 1
        open[depth].removeAll()
    }

    /// Forgets every open object (a new document begins).
    func removeAll() {
        for index in open.indices { open[index].removeAll() }
        depth = 0
    }

    /// Records a key of the current object; false when the object already has it.
    func insert(_ key: JSONText) -> Bool {
        key.withUnsafeBytes { open[depth - 1].insert($0) }
    }
}

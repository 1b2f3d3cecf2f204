/// What a reader noted about each value when it took it (where it lies, where the line after it
/// starts), kept until the value is delivered: with workers, values are delivered some time after
/// they are read, and a value that fails is never delivered, so the note of a delivered value is
/// found by its index, passing over the notes of the values before it.
///
/// Used only when the caller asked for what the notes feed (checkpoints, element positions);
/// without workers it holds one note at a time.
struct DeliveryNotes<Note> {
    private var notes: [(index: Int, note: Note)] = []
    /// The first note not yet taken or passed over.
    private var head = 0

    /// Notes `note` for the value at `index`; indices are appended in increasing order.
    mutating func append(_ note: Note, for index: Int) {
        notes.append((index, note))
    }

    /// The note of the value at `index`, which is being delivered; the notes before it are of
    /// values that failed, and are dropped. Nil when none was noted for it.
    mutating func take(for index: Int) -> Note? {
        while head < notes.count, notes[head].index < index { head += 1 }
        guard head < notes.count, notes[head].index == index else { return nil }
        let note = notes[head].note
        head += 1
        // Taken notes go in bulk, so that the array stays as short as the workers' window.
        if head >= 1024, head * 2 >= notes.count {
            notes.removeFirst(head)
            head = 0
        }
        return note
    }
}

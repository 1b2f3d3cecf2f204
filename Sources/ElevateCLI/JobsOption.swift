import ArgumentParser
import Elevate

/// `--jobs`: how many threads share the parse of one document (see the library's split parse).
struct JobsOption: ParsableArguments {
    @Option(
        name: .customLong("jobs"),
        help: ArgumentHelp(
            "Threads that parse one document at once: a structural pre-scan cuts its arrays (or JSON Lines, its lines) into runs parsed on the others; 1 parses on one thread. Results and errors are the same.",
            valueName: "n"))
    var jobs = StreamingOptions.automaticConcurrency

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1.") }
    }
}

import ArgumentParser

// Temporary root command for the benchkit branch only: drop this file when merging with the
// branch that adds the `elevate` tool, whose root command registers `Bench`.
@main
struct ElevateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "elevate", subcommands: [Bench.self])
}

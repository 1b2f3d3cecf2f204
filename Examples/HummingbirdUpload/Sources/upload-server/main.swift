import Foundation
import UploadServer

// Runs the upload server until SIGINT or SIGTERM; see README.md for a curl line to try it.
guard let arguments = ServerArguments(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
else {
    FileHandle.standardError.write(Data((ServerArguments.usage + "\n").utf8))
    exit(2)
}
let app = buildApplication(host: arguments.host, port: arguments.port)
try await app.runService()

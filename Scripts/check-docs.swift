// Checks that every public symbol of the package's library modules has a documentation comment,
// and that every named parameter of a public function, initializer or subscript appears in it
// as `- Parameter name:` or under `- Parameters:`. Reads the symbol graphs that
// `swift package dump-symbol-graph --minimum-access-level public` writes; see check-docs.sh.
//
//     swift Scripts/check-docs.swift .build/x86_64-unknown-linux-gnu/symbolgraph Elevate ElevateBenchmarkKit
import Foundation

let arguments = CommandLine.arguments.dropFirst()
guard let directory = arguments.first else {
    FileHandle.standardError.write(Data("usage: check-docs.swift SYMBOLGRAPH_DIR MODULE...\n".utf8))
    exit(64)
}
let modules = Set(arguments.dropFirst())
let callableKinds: Set<String> = [
    "swift.func", "swift.method", "swift.init", "swift.type.method", "swift.subscript", "swift.func.op",
]
var problems: [String] = []
let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
for file in files.sorted() where file.hasSuffix(".symbols.json") {
    // "Elevate.symbols.json", and "Elevate@Swift.symbols.json" for extensions of other modules' types.
    let module = String(file.prefix { $0 != "." && $0 != "@" })
    guard modules.contains(module) else { continue }
    let data = try Data(contentsOf: URL(fileURLWithPath: directory).appendingPathComponent(file))
    guard let graph = try JSONSerialization.jsonObject(with: data) as? [String: Any],
        let symbols = graph["symbols"] as? [[String: Any]]
    else { continue }
    for symbol in symbols {
        // Symbols without a location are synthesized (memberwise initializers, inherited members).
        guard ["public", "open"].contains(symbol["accessLevel"] as? String),
            let location = symbol["location"] as? [String: Any]
        else { continue }
        let name = (symbol["pathComponents"] as? [String] ?? []).joined(separator: ".")
        let kind = (symbol["kind"] as? [String: Any])?["identifier"] as? String ?? ""
        let uri = (location["uri"] as? String ?? "").replacingOccurrences(of: "file://", with: "")
        let line = ((location["position"] as? [String: Any])?["line"] as? Int ?? 0) + 1
        let place = "\(uri):\(line)"
        guard let comment = symbol["docComment"] as? [String: Any],
            let lines = comment["lines"] as? [[String: Any]]
        else {
            problems.append("\(place): \(name) has no documentation comment")
            continue
        }
        guard callableKinds.contains(kind) else { continue }
        let text = lines.compactMap { $0["text"] as? String }
        let parameters = ((symbol["functionSignature"] as? [String: Any])?["parameters"] as? [[String: Any]]) ?? []
        for parameter in parameters {
            let parameterName = parameter["internalName"] as? String ?? parameter["name"] as? String ?? "_"
            guard parameterName != "_" else { continue }
            let documented = text.contains { line in
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                return trimmed.hasPrefix("- Parameter \(parameterName):") || trimmed.hasPrefix("- \(parameterName):")
            }
            if !documented { problems.append("\(place): \(name): parameter \(parameterName) is not documented") }
        }
    }
}
for problem in problems { print(problem) }
print("check-docs: \(problems.count) problem(s) in \(modules.sorted().joined(separator: ", "))")
exit(problems.isEmpty ? 0 : 1)

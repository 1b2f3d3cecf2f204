// What an example program needs, besides its own source, to be linked against a library product
// as `swift build` left it in the build directory: the object files of every target of the
// product and of the targets they depend on, and the module maps of the C and system-library
// targets among them (the compiler reads those when it imports a module that imports them).
//
// The targets and their sources come from `swift package describe --type json`, so a target added
// to or moved out of the product is followed without editing this file. The object names are
// SwiftPM's: `<target>.build/<source file name>.o` for Swift, `<target>.build/<source path>.o` for
// C. A missing object is an error, not a silent gap: the build is stale or the layout changed.
//
// Usage: swift package describe --type json | link-inputs BUILD_DIR PRODUCT
// Prints one swiftc argument per line.
import Foundation

struct PackageDescription: Decodable {
    struct Product: Decodable {
        let name: String
        let targets: [String]
    }

    struct Target: Decodable {
        let name: String
        let path: String
        let moduleType: String
        let sources: [String]?
        let targetDependencies: [String]?

        enum CodingKeys: String, CodingKey {
            case name, path, sources
            case moduleType = "module_type"
            case targetDependencies = "target_dependencies"
        }
    }

    let products: [Product]
    let targets: [Target]
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("link-inputs: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count == 3 else { fail("usage: link-inputs BUILD_DIR PRODUCT < description.json") }
let buildDirectory = URL(fileURLWithPath: arguments[1])
let productName = arguments[2]

let description: PackageDescription
do {
    description = try JSONDecoder().decode(
        PackageDescription.self, from: FileHandle.standardInput.readDataToEndOfFile())
} catch {
    fail("cannot read the package description: \(error)")
}
guard let product = description.products.first(where: { $0.name == productName }) else {
    fail("no product named \(productName)")
}
let targetsByName = Dictionary(description.targets.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })

// The product's targets and everything they depend on, each once, in a stable order.
var closure: [String] = []
var pending = product.targets
while let name = pending.first {
    pending.removeFirst()
    if closure.contains(name) { continue }
    // A dependency on another package's product is not in `targets`; Elevate has none, and an
    // unknown name is reported rather than linked short.
    guard let target = targetsByName[name] else { fail("target \(name) is not in the package description") }
    closure.append(name)
    pending += target.targetDependencies ?? []
}

let fileManager = FileManager.default
var output: [String] = []
for name in closure {
    let target = targetsByName[name]!
    let objectDirectory = buildDirectory.appendingPathComponent("\(name).build")
    switch target.moduleType {
    case "SystemLibraryTarget":
        output += ["-Xcc", "-fmodule-map-file=\(target.path)/module.modulemap"]
    case "SwiftTarget", "ClangTarget":
        if target.moduleType == "ClangTarget" {
            let include = "\(target.path)/include"
            let generated = objectDirectory.appendingPathComponent("module.modulemap").path
            if fileManager.fileExists(atPath: "\(include)/module.modulemap") {
                output += ["-Xcc", "-fmodule-map-file=\(include)/module.modulemap"]
            } else if fileManager.fileExists(atPath: generated) {
                output += ["-Xcc", "-fmodule-map-file=\(generated)"]
            }
            output += ["-Xcc", "-I\(include)"]
        }
        for source in target.sources ?? [] {
            let candidates = [
                objectDirectory.appendingPathComponent((source as NSString).lastPathComponent + ".o").path,
                objectDirectory.appendingPathComponent(source + ".o").path,
            ]
            guard let object = candidates.first(where: { fileManager.fileExists(atPath: $0) }) else {
                fail("no object for \(target.path)/\(source) in \(objectDirectory.path); run 'swift build' first")
            }
            output.append(object)
        }
    default:
        fail("target \(name) is a \(target.moduleType), which examples cannot link")
    }
}
print(output.joined(separator: "\n"))

// Checks that the folders of the library's two modules, Sources/ElevateJSON and Sources/Elevate,
// are layers: a folder names only what its own layer and the layers below it declare (the
// compiler already keeps ElevateJSON from naming Elevate; this keeps the folders in order). Finds the declarations of each folder (top-level types,
// protocols, typealiases, free functions, globals and custom operators, and what the members of an
// `extension X { ... }` add, attributed to the folder of the extension's file), tokenizes every
// Swift file (comments and the text of string literals stripped, interpolations kept), matches
// each identifier against those names, prints the folder → folder matrix of references and lists,
// with file:line, every reference a folder makes to a folder that is not below it. Exits 1 if there
// is any. Only Foundation, so that it runs wherever Swift does (no python on some CI machines):
//
//     swift Scripts/check-layers.swift            (from the package root; CI runs it in .ci/run)
//     swift Scripts/check-layers.swift --verbose  (also every cross-folder name and its count)
import Foundation

// MARK: - The layers, lowest first

/// Each layer may name itself and every layer listed before it, never one listed after it.
/// Folders in one layer sit side by side and may not name each other.
let layers: [(folders: [String], holds: String)] = [
    // (Below everything: the C module CYAJL, YAJL 2.1 through pkg-config; a target of its own.)
    (["ElevateJSON/Events"], "the event parser over YAJL: JSONEventParser, handlers, options, syntax "
        + "errors, numbers as YAJL gives them (JSONNumber, JSONLargeNumber), UTF-8 validation"),
    (["ElevateJSON/Input"], "where bytes come from and how they are cut: JSONInput (data, file, "
        + "descriptor, chunks), forEachChunk, JSONFraming, parseAll(JSONInput) on the event parser"),
    (["ElevateJSON/Document"], "the parsed document: the tape and its builder, JSONValue and its "
        + "views, JSONValueBuilder, KeyPathSelector (key paths over events)"),
    // Consumers of the document, side by side: neither names the other.
    (["ElevateJSON/Codable", "ElevateJSON/Failures"], "Codable: ElevateJSONDecoder and the mutable "
        + "JSON on the tape; Failures: ParserError, validation failures and their texts, the reports"),
    // The writer writes Foundation value trees and JSONRepresentable values (Elevate's Encodable
    // refines it); nothing of Codable names the writer.
    (["ElevateJSON/Writer"], "JSON text out of events and values: JSONWriter, JSONGenerator, "
        + "JSONStreamWriter, JSONEventWriter"),
    // Encoding writes Codable values through the writer, so it sits above it (and above Codable,
    // whose JSON type it encodes); nothing below names the encoder.
    (["ElevateJSON/Encoding"], "ElevateJSONEncoder and the streaming encoder, on top of the writer"),
    (["ElevateJSON/Streaming"], "element streams over large inputs for any decoding: the document "
        + "pass, ArrayDecoding, ElementStream, JSON Lines, the parallel element decoder, "
        + "AsyncJSONElements, and the calls for Codable types"),
    // The Elevate module, on top of all of ElevateJSON (which it re-exports).
    (["Elevate/Schema"], "Elevate's Decodable/Decoder/Encodable, Schema, Parser over values, "
        + "validation, the <-! operators, the per-thread decoding state"),
    (["Elevate/Streaming"], "Elevate's calls that read an input (Data, JSONInput, chunks): "
        + "decodeObject, decodeArray, forEachElement, forEachValue, Parser.parseEntity(data:)"),
    // (Above everything: the tool, Sources/ElevateCLI, a target of its own; not scanned here.)
]

/// Names this check does not resolve, with the reason. A name declared in more than one folder is
/// skipped by itself (reported with --verbose); these are names that one folder declares but that
/// mostly mean something else where they appear (the standard library's or Foundation's members,
/// argument labels, local variables).
let excludedNames: [String: String] = [
    "init": "every initializer; the type it builds is counted instead",
    "description": "CustomStringConvertible's member, on every type",
    "debugDescription": "CustomDebugStringConvertible's member",
    "count": "collections' count",
    "isEmpty": "collections' isEmpty",
    "hash": "Hashable's member",
    "encode": "Swift.Encodable's member and the encoder containers' methods",
    "decode": "Swift.Decodable's containers' methods",
    "value": "argument label and local name everywhere",
    "values": "argument label and local name everywhere",
    "string": "argument label, enum case and local name everywhere",
    "data": "argument label and local name everywhere",
    "kind": "local name and member of several types",
    "error": "local name in every catch",
    "path": "argument label and local name",
    "key": "argument label and local name",
    "index": "argument label and local name",
    "write": "standard and Foundation write methods",
    "next": "IteratorProtocol's member",
    "makeIterator": "Sequence's member",
    "Element": "associated type of every sequence",
    "Iterator": "associated type of every sequence",
    "Index": "associated type of every collection",
    "Int": "Elevate 1.x spellings (`SchemaProperty.Int`, …) shadow the standard library type names",
    "UInt": "as Int", "Float": "as Int", "Double": "as Int", "Bool": "as Int", "String": "as Int",
    "Array": "as Int", "Dictionary": "as Int", "URL": "as Int",
    "exactly": "`Decimal(exactly:)`, `Int(exactly:)`: the standard library's initializers",
    "removeValue": "Dictionary's removeValue(forKey:)",
    "withUTF8": "String's withUTF8",
    "append": "collections' append",
    "assert": "the standard library's assert (JSON.assert is Lift's check)",
    "assertionFailure": "the standard library's assertionFailure",
    "run": "a method name of several local types",
]

/// Qualifiers that say a name is not this module's (`Swift.Decodable`, `Foundation.Data`).
let otherModules: Set<String> = ["Swift", "Foundation", "Dispatch", "Glibc", "Darwin", "CYAJL", "CWideScans", "Musl"]
let libraryModules = ["ElevateJSON", "Elevate"]

// MARK: - Tokens

struct Token {
    enum Kind { case identifier, `operator`, punctuation }
    var kind: Kind
    var text: String
    var line: Int
}

/// Swift source as tokens: identifiers (backquotes removed), operator runs and punctuation.
/// Comments, numbers and the text of string literals are dropped; the code of a string
/// interpolation is kept.
struct Lexer {
    let bytes: [UInt8]
    var position = 0
    var line = 1
    var tokens: [Token] = []

    init(_ text: String) { bytes = Array(text.utf8) }

    func peek(_ offset: Int = 0) -> UInt8 {
        position + offset < bytes.count ? bytes[position + offset] : 0
    }

    static func isIdentifierStart(_ c: UInt8) -> Bool {
        (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x5F || c >= 0x80
    }
    static func isIdentifierBody(_ c: UInt8) -> Bool { isIdentifierStart(c) || (c >= 0x30 && c <= 0x39) }
    static let operatorCharacters = Set("/=-+!*%<>&|^~?".utf8)

    mutating func advance() {
        if bytes[position] == 0x0A { line += 1 }
        position += 1
    }

    /// Lexes code until the end, or (inside an interpolation) until the `)` that closes it.
    mutating func lexCode(untilClosingParenthesis: Bool) {
        var parentheses = 0
        while position < bytes.count {
            let c = peek()
            if c == 0x2F && peek(1) == 0x2F {  // line comment
                while position < bytes.count && peek() != 0x0A { advance() }
            } else if c == 0x2F && peek(1) == 0x2A {  // block comment, nested
                var depth = 0
                repeat {
                    if peek() == 0x2F && peek(1) == 0x2A { depth += 1; advance(); advance() }
                    else if peek() == 0x2A && peek(1) == 0x2F { depth -= 1; advance(); advance() }
                    else { advance() }
                } while depth > 0 && position < bytes.count
            } else if c == 0x22 || (c == 0x23 && startsRawString()) {
                lexString()
            } else if Lexer.isIdentifierStart(c) {
                let start = position
                while position < bytes.count && Lexer.isIdentifierBody(peek()) { advance() }
                tokens.append(Token(kind: .identifier, text: text(start, position), line: line))
            } else if c == 0x60 {  // `name`
                advance()
                let start = position
                while position < bytes.count && peek() != 0x60 { advance() }
                tokens.append(Token(kind: .identifier, text: text(start, position), line: line))
                if position < bytes.count { advance() }
            } else if c >= 0x30 && c <= 0x39 {  // number
                while position < bytes.count
                    && (Lexer.isIdentifierBody(peek()) || (peek() == 0x2E && peek(1) >= 0x30 && peek(1) <= 0x39))
                { advance() }
            } else if c == 0x24 {  // $0, $name
                advance()
                while position < bytes.count && Lexer.isIdentifierBody(peek()) { advance() }
            } else if Lexer.operatorCharacters.contains(c) || (c == 0x2E && Lexer.operatorCharacters.contains(peek(1))) {
                let start = position
                while position < bytes.count
                    && (Lexer.operatorCharacters.contains(peek()) || peek() == 0x2E)
                    && !(peek() == 0x2F && (peek(1) == 0x2F || peek(1) == 0x2A))
                { advance() }
                tokens.append(Token(kind: .operator, text: text(start, position), line: line))
            } else if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D {
                advance()
            } else {
                if untilClosingParenthesis {
                    if c == 0x28 { parentheses += 1 }
                    if c == 0x29 {
                        if parentheses == 0 { advance(); return }
                        parentheses -= 1
                    }
                }
                tokens.append(Token(kind: .punctuation, text: String(UnicodeScalar(c)), line: line))
                advance()
            }
        }
    }

    func startsRawString() -> Bool {
        var offset = 0
        while peek(offset) == 0x23 { offset += 1 }
        return peek(offset) == 0x22
    }

    /// A string literal from its opening `#…"`/`"""`: skips its text, lexes its interpolations.
    mutating func lexString() {
        var hashes = 0
        while peek() == 0x23 { hashes += 1; advance() }
        let multiline = peek() == 0x22 && peek(1) == 0x22 && peek(2) == 0x22
        let quotes = multiline ? 3 : 1
        for _ in 0..<quotes { advance() }
        while position < bytes.count {
            let c = peek()
            if c == 0x5C && (0..<hashes).allSatisfy({ peek(1 + $0) == 0x23 }) {  // \ or \#…
                for _ in 0...hashes { advance() }
                if peek() == 0x28 {
                    advance()
                    lexCode(untilClosingParenthesis: true)
                } else if position < bytes.count {
                    advance()
                }
            } else if c == 0x22 && (0..<quotes).allSatisfy({ peek($0) == 0x22 })
                && (0..<hashes).allSatisfy({ peek(quotes + $0) == 0x23 })
            {
                for _ in 0..<(quotes + hashes) { advance() }
                return
            } else {
                advance()
            }
        }
    }

    func text(_ start: Int, _ end: Int) -> String {
        String(decoding: bytes[start..<end], as: UTF8.self)
    }
}

func tokenize(_ text: String) -> [Token] {
    var lexer = Lexer(text)
    lexer.lexCode(untilClosingParenthesis: false)
    return lexer.tokens
}

// MARK: - Declarations

let typeKeywords: Set<String> = ["struct", "class", "enum", "protocol", "actor", "typealias"]
let declarationKeywords = typeKeywords.union(["func", "let", "var", "case", "associatedtype"])

struct Declaration {
    var name: String
    var file: String
    var line: Int
}

/// The names a file declares: `visible` are those other files can name (top-level non-private
/// declarations, non-private members of its extensions); `all` adds every other declaration at
/// any depth (members of its types, locals), used only to tell which names are shared.
func declarations(in tokens: [Token], file: String) -> (visible: [Declaration], all: Set<String>) {
    enum Scope { case extensionBody, typeBody, other }
    var visible: [Declaration] = []
    var all: Set<String> = []
    var scopes: [Scope] = []
    var pendingScope: Scope = .other  // what the next `{` opens
    var isPrivate = false
    var index = 0
    while index < tokens.count {
        let token = tokens[index]
        switch (token.kind, token.text) {
        case (.punctuation, "{"):
            scopes.append(pendingScope)
            pendingScope = .other
            isPrivate = false
        case (.punctuation, "}"):
            _ = scopes.popLast()
            isPrivate = false
        case (.punctuation, ";"):
            isPrivate = false
        case (.identifier, "private"), (.identifier, "fileprivate"):
            // `private(set) var` is readable from outside.
            if !(index + 1 < tokens.count && tokens[index + 1].text == "(") { isPrivate = true }
        case (.identifier, "import"):
            // `import struct Foundation.Data`: no declaration; skip the path.
            let line = token.line
            while index + 1 < tokens.count, tokens[index + 1].line == line { index += 1 }
        case (.identifier, "extension"):
            pendingScope = .extensionBody
        case (.identifier, "operator") where scopes.isEmpty:
            if index + 1 < tokens.count {
                visible.append(Declaration(name: tokens[index + 1].text, file: file, line: token.line))
            }
        case (.identifier, let keyword) where declarationKeywords.contains(keyword):
            // `class func`, `class var`: a modifier, not a class.
            if keyword == "class", index + 1 < tokens.count, ["func", "var", "let"].contains(tokens[index + 1].text) {
                break
            }
            guard index + 1 < tokens.count else { break }
            let next = tokens[index + 1]
            if typeKeywords.contains(keyword) && keyword != "typealias" { pendingScope = .typeBody }
            // `let (a, b) =`, `case .x` patterns and `func` operators at member level are not names.
            guard next.kind == .identifier || (keyword == "func" && next.kind == .operator) else { break }
            if keyword == "case" && scopes.last != .typeBody && scopes.last != .extensionBody { break }
            all.insert(next.text)
            let where_ = scopes.last
            let exported = !isPrivate && next.kind == .identifier
                && (scopes.isEmpty || (where_ == .extensionBody && scopes.count == 1))
            if exported { visible.append(Declaration(name: next.text, file: file, line: next.line)) }
            if keyword != "case" { isPrivate = false }
            // `case a, b, c`
            if keyword == "case" {
                var cursor = index + 2
                var parentheses = 0
                while cursor + 1 < tokens.count, tokens[cursor].line == next.line {
                    let text = tokens[cursor].text
                    if text == "(" { parentheses += 1 }
                    if text == ")" { parentheses -= 1 }
                    if parentheses == 0 && text == "," && tokens[cursor + 1].kind == .identifier {
                        all.insert(tokens[cursor + 1].text)
                        if exported {
                            visible.append(Declaration(name: tokens[cursor + 1].text, file: file, line: next.line))
                        }
                    }
                    cursor += 1
                }
            }
        default:
            break
        }
        index += 1
    }
    return (visible, all)
}

// MARK: - Scan

let arguments = Set(CommandLine.arguments.dropFirst())
let verbose = arguments.contains("--verbose")
let packageRoot = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
let layerOf: [String: Int] = Dictionary(
    uniqueKeysWithValues: layers.enumerated().flatMap { index, layer in layer.folders.map { ($0, index) } })

struct SourceFile {
    var folder: String
    var path: String  // relative to the package root
    var tokens: [Token]
}

var files: [SourceFile] = []
var problems: [String] = []
for module in libraryModules {
    let root = packageRoot.appendingPathComponent("Sources/\(module)")
    guard let enumerator = FileManager.default.enumerator(atPath: root.path) else {
        FileHandle.standardError.write(Data("check-layers: no \(root.path); run it from the package root\n".utf8))
        exit(64)
    }
    for case let relative as String in enumerator where relative.hasSuffix(".swift") {
        let components = relative.split(separator: "/").map(String.init)
        let text = try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
        let tokens = tokenize(text)
        guard components.count >= 2 else {
            // A file at the module's root may only import (Elevate's `@_exported import ElevateJSON`).
            if tokens.contains(where: { $0.kind != .punctuation && !["import", "@_exported", "_exported"].contains($0.text) && !libraryModules.contains($0.text) }) {
                problems.append("Sources/\(module)/\(relative): a file outside every folder; put it in a layer's folder")
            }
            continue
        }
        let folder = "\(module)/\(components[0])"
        if layerOf[folder] == nil {
            problems.append("Sources/\(folder)/: a folder in no layer; add it to `layers` in Scripts/check-layers.swift")
        }
        files.append(SourceFile(folder: folder, path: "Sources/\(module)/\(relative)", tokens: tokens))
    }
}
files.sort { $0.path < $1.path }

// Which folder declares each name; a name declared (at any depth) in several folders is shared.
var declaringFolders: [String: Set<String>] = [:]
var anyDeclarationFolders: [String: Set<String>] = [:]
var firstDeclaration: [String: Declaration] = [:]
for file in files {
    let (visible, all) = declarations(in: file.tokens, file: file.path)
    for declaration in visible {
        declaringFolders[declaration.name, default: []].insert(file.folder)
        if firstDeclaration[declaration.name] == nil { firstDeclaration[declaration.name] = declaration }
    }
    for name in all { anyDeclarationFolders[name, default: []].insert(file.folder) }
}
var owner: [String: String] = [:]
var shared: [String: Set<String>] = [:]
for (name, folders) in declaringFolders where excludedNames[name] == nil {
    let everywhere = folders.union(anyDeclarationFolders[name] ?? [])
    if everywhere.count == 1 { owner[name] = folders.first! } else { shared[name] = everywhere }
}

// References: every identifier or operator that names what another folder declares.
struct Reference {
    var file: String
    var line: Int
    var name: String
}
var edges: [String: [String: [Reference]]] = [:]  // from → to → references
for file in files {
    let tokens = file.tokens
    for (index, token) in tokens.enumerated() where token.kind != .punctuation {
        // `Swift.Decodable`, `Foundation.Data`: another module's name.
        if index >= 2, tokens[index - 1].text == ".", otherModules.contains(tokens[index - 2].text) { continue }
        if libraryModules.contains(token.text), index + 1 < tokens.count, tokens[index + 1].text == "." { continue }
        // An argument or tuple label: `Decimal(exactly: x)`, `f(a, chunkSize: n)`.
        if index >= 1, index + 1 < tokens.count, ["(", ","].contains(tokens[index - 1].text), tokens[index + 1].text == ":" { continue }
        guard let to = owner[token.text], to != file.folder else { continue }
        edges[file.folder, default: [:]][to, default: []].append(Reference(file: file.path, line: token.line, name: token.text))
    }
}

// MARK: - Report

func allowed(_ from: String, _ to: String) -> Bool {
    guard let fromLayer = layerOf[from], let toLayer = layerOf[to] else { return false }
    return toLayer < fromLayer
}

let folders = layers.flatMap(\.folders).filter { folder in files.contains { $0.folder == folder } }
    + Set(files.map(\.folder)).filter { layerOf[$0] == nil }.sorted()
print("Layers, lowest first (a folder may name its own layer's folder and those below):")
for (index, layer) in layers.enumerated() {
    print("  \(index + 1). \(layer.folders.joined(separator: ", ")): \(layer.holds)")
}
print("")
print("References from a folder (row) to names another folder (column) declares; * = not allowed:")
let width = max(10, (folders.map(\.count).max() ?? 0) + 2)
func pad(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(0, width - text.count)) }
print(pad("", width) + folders.map { pad($0, width) }.joined())
for from in folders {
    var row = pad(from, width)
    for to in folders {
        let count = edges[from]?[to]?.count ?? 0
        let cell = from == to ? "." : count == 0 ? "" : "\(count)" + (allowed(from, to) ? "" : "*")
        row += pad(cell, width)
    }
    print(row)
}

var badEdges = 0
var badReferences = 0
for from in folders {
    for to in folders where from != to && !allowed(from, to) {
        guard let references = edges[from]?[to], !references.isEmpty else { continue }
        badEdges += 1
        badReferences += references.count
        print("")
        print("\(from) → \(to): \(references.count) reference(s) to a folder that is not below \(from)")
        for reference in references {
            let declared = firstDeclaration[reference.name].map { " (declared at \($0.file):\($0.line))" } ?? ""
            print("  \(reference.file):\(reference.line): \(reference.name)\(declared)")
        }
    }
}

if verbose {
    print("")
    print("Cross-folder names and their counts:")
    for from in folders {
        for to in folders {
            guard let references = edges[from]?[to], from != to else { continue }
            let counts = Dictionary(grouping: references, by: \.name).mapValues(\.count)
            let list = counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            print("  \(from) → \(to): \(list)")
        }
    }
    print("")
    print("Names declared in several folders, not resolved:")
    for (name, folders) in shared.sorted(by: { $0.key < $1.key }) {
        print("  \(name): \(folders.sorted().joined(separator: ", "))")
    }
}

print("")
for problem in problems { print("error: \(problem)") }
if badEdges > 0 || !problems.isEmpty {
    print("check-layers: \(badEdges) edge(s), \(badReferences) reference(s) against the layer order")
    exit(1)
}
print("check-layers: every folder names only its own layer and those below")

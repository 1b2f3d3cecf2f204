import ElevateMacrosExpansion
import Foundation
import SwiftParser
import SwiftSyntax
import Testing

/// The benchmark kit's Codable models hold `@TapeDecodable`'s expansions written out (the tool
/// never builds swift-syntax, so it cannot expand the macro): each model file ends with a
/// generated section, which must be what the macro writes for the structs above it.
///
/// After changing the macro or a model: `ELEVATE_REGENERATE=1 swift test --filter BenchmarkModelExpansionTests`.
@Suite struct BenchmarkModelExpansionTests {
    static let marker = "// MARK: - Written by @TapeDecodable"
    static let files = ["CodablePerson.swift", "TwitterDocument.swift", "CitmCatalog.swift"]

    static var modelsDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/ElevateBenchmarkKit/Models")
    }

    /// The file with its generated section rewritten from the structs above it.
    static func regenerated(_ text: String) throws -> String {
        let handWritten = text.components(separatedBy: "\n\n" + marker).first ?? text
        let tree = Parser.parse(source: handWritten)
        var extensions: [String] = []
        func visit(_ items: MemberBlockItemListSyntax?, _ statements: CodeBlockItemListSyntax?, prefix: String) throws {
            let decls =
                (statements?.compactMap { $0.item.as(DeclSyntax.self) } ?? [])
                + (items?.map(\.decl) ?? [])
            for decl in decls {
                guard let structDecl = decl.as(StructDeclSyntax.self) else { continue }
                let name = prefix + structDecl.name.text
                let inherited = structDecl.inheritanceClause?.trimmedDescription ?? ""
                if inherited.contains("Codable") || inherited.contains("Decodable") {
                    extensions.append(
                        try TapeDecodableMacro.extensionSource(for: structDecl, typeName: name, addsConformance: true))
                }
                try visit(structDecl.memberBlock.members, nil, prefix: name + ".")
            }
        }
        try visit(nil, tree.statements, prefix: "")
        return handWritten + "\n\n" + marker
            + " (BenchmarkModelExpansionTests checks it; see there to rewrite it)\n\n"
            + extensions.joined(separator: "\n\n") + "\n"
    }

    @Test(arguments: files)
    func theWrittenOutExpansionsAreTheMacros(file: String) throws {
        let url = Self.modelsDirectory.appendingPathComponent(file)
        let text = try String(contentsOf: url, encoding: .utf8)
        let expected = try Self.regenerated(text)
        if ProcessInfo.processInfo.environment["ELEVATE_REGENERATE"] == "1", expected != text {
            try expected.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        #expect(text == expected, "\(file) differs from the macro's expansions: ELEVATE_REGENERATE=1 rewrites it")
    }
}

import ElevateMacrosExpansion
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// The text `@TapeDecodable` writes, and the declarations it refuses.
@Suite struct TapeDecodableExpansionTests {
    private let macros = ["TapeDecodable": MacroSpec(type: TapeDecodableMacro.self, conformances: ["TapeDecodable"])]

    private func expect(
        _ source: String, _ expanded: String, diagnostics: [DiagnosticSpec] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        assertMacroExpansion(
            source, expandedSource: expanded, diagnostics: diagnostics, macroSpecs: macros,
            failureHandler: { failure in
                Issue.record(Comment(rawValue: failure.message), sourceLocation: sourceLocation)
            })
    }

    @Test func everyStoredPropertyUnderItsCase() {
        expect(
            """
            @TapeDecodable
            struct Person: Codable {
                var identifier: Int
                let name: String
                var nickname: String?
                var addresses: [Address]
            }
            """,
            """
            struct Person: Codable {
                var identifier: Int
                let name: String
                var nickname: String?
                var addresses: [Address]
            }

            extension Person: ElevateJSON.TapeDecodable {
                init(fromTape value: ElevateJSON.TapeDecodingValue) throws {
                    _ = { (key: CodingKeys) in
                        switch key {
                        case .identifier, .name, .nickname, .addresses:
                            break
                        }
                    }
                    let container = try value.container(keyedBy: CodingKeys.self)
                    self.identifier = try container.decodeProperty(\\Self.identifier, forKey: .identifier)
                    self.name = try container.decodeProperty(\\Self.name, forKey: .name)
                    self.nickname = try container.decodeProperty(\\Self.nickname, forKey: .nickname)
                    self.addresses = try container.decodeProperty(\\Self.addresses, forKey: .addresses)
                }
            }
            """)
    }

    /// What `init(from:)` skips, the compiler's way: statics, computed properties, a `let` with
    /// a value, and what a declared `CodingKeys` leaves out. Observed properties are stored.
    @Test func skipsWhatInitFromSkips() {
        expect(
            """
            @TapeDecodable
            public struct Item: Codable {
                static var count = 0
                let kind = "item"
                var label: String { "x" }
                var total: Int = 0 { didSet { } }
                var cache: [Int] = []
                var a, b: Double
                var maybe: Optional<Int>
                var forced: Int!
                var `default`: Bool
                enum CodingKeys: String, CodingKey {
                    case total = "sum", a, b, maybe, forced, `default`
                }
            }
            """,
            """
            public struct Item: Codable {
                static var count = 0
                let kind = "item"
                var label: String { "x" }
                var total: Int = 0 { didSet { } }
                var cache: [Int] = []
                var a, b: Double
                var maybe: Optional<Int>
                var forced: Int!
                var `default`: Bool
                enum CodingKeys: String, CodingKey {
                    case total = "sum", a, b, maybe, forced, `default`
                }
            }

            extension Item: ElevateJSON.TapeDecodable {
                public init(fromTape value: ElevateJSON.TapeDecodingValue) throws {
                    let container = try value.container(keyedBy: CodingKeys.self)
                    self.total = try container.decodeProperty(\\Self.total, forKey: .total)
                    self.a = try container.decodeProperty(\\Self.a, forKey: .a)
                    self.b = try container.decodeProperty(\\Self.b, forKey: .b)
                    self.maybe = try container.decodeProperty(\\Self.maybe, forKey: .maybe)
                    self.forced = try container.decodeProperty(\\Self.forced, forKey: .forced)
                    self.`default` = try container.decodeProperty(\\Self.`default`, forKey: .`default`)
                }
            }
            """)
    }

    /// A declared `CodingKeys` sets the order (the first error of several is the same), and an
    /// `init(from dto:)` that takes no decoder is no reason to refuse.
    @Test func declaredKeysSetTheOrder() {
        expect(
            """
            @TapeDecodable
            struct KeyOrder: Codable {
                var a: Int
                var b: Int
                init(from dto: Int) { a = dto; b = dto }
                enum CodingKeys: CodingKey {
                    case b, a
                }
            }
            """,
            """
            struct KeyOrder: Codable {
                var a: Int
                var b: Int
                init(from dto: Int) { a = dto; b = dto }
                enum CodingKeys: CodingKey {
                    case b, a
                }
            }

            extension KeyOrder: ElevateJSON.TapeDecodable {
                init(fromTape value: ElevateJSON.TapeDecodingValue) throws {
                    let container = try value.container(keyedBy: CodingKeys.self)
                    self.b = try container.decodeProperty(\\Self.b, forKey: .b)
                    self.a = try container.decodeProperty(\\Self.a, forKey: .a)
                }
            }
            """)
    }

    @Test(arguments: [
        ("@TapeDecodable\nclass Node: Codable { var value: Int }", "@TapeDecodable applies to structs"),
        ("@TapeDecodable\nenum Kind: Codable { case a }", "@TapeDecodable applies to structs"),
        (
            "@TapeDecodable\nstruct Own: Codable {\n    var a: Int\n    init(from decoder: any Decoder) throws { a = 1 }\n}",
            "this struct writes its own"
        ),
        ("@TapeDecodable\nstruct Untyped: Codable {\n    var a = 1\n}", "needs the type of 'a' written out"),
        (
            "@TapeDecodable\nstruct Conditional: Codable {\n    var a: Int\n    #if DEBUG\n    var b: Int = 0\n    #endif\n}",
            "inside #if"
        ),
        (
            "@TapeDecodable\nstruct KeysInIf: Codable {\n    var a: Int\n    enum CodingKeys: CodingKey {\n        case a\n        #if DEBUG\n        case b\n        #endif\n    }\n}",
            "CodingKeys cases inside #if"
        ),
        (
            "@TapeDecodable\nstruct InitInIf: Codable {\n    var a: Int\n    #if DEBUG\n    init(from decoder: any Decoder) throws { a = 1 }\n    #endif\n}",
            "inside #if"
        ),
        ("@TapeDecodable\nstruct Aliased: Codable {\n    var a: Int\n    typealias CodingKeys = OtherKeys\n}", "this CodingKeys is not one"),
        ("@TapeDecodable\nstruct Clamp: Codable {\n    @Clamped(0...9) var a: Int\n}", "which has @Clamped"),
    ])
    func refuses(source: String, message: String) {
        var failures: [String] = []
        assertMacroExpansion(
            source, expandedSource: "", macroSpecs: macros,
            failureHandler: { failures.append($0.message) })
        // The expansion is refused with a diagnostic naming why (the harness reports it as an
        // unexpected diagnostic, whose text this checks).
        #expect(failures.contains { $0.contains(message) }, "\(failures)")
    }
}

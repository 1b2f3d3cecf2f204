import ElevateMacrosExpansion
import SwiftCompilerPlugin
import SwiftSyntax
import SwiftSyntaxMacros

/// The compiler plugin that provides `@TapeDecodable`.
@main
struct ElevateMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [TapeDecodableMacro.self]
}

/// `@TapeDecodable`, as the compiler finds it (`ElevateMacrosPlugin.TapeDecodableMacro`): the
/// expansion itself is written in ElevateMacrosExpansion, where the tests reach it without naming
/// a macro target (which makes SwiftPM build every test target for the compiler's host too).
public struct TapeDecodableMacro: ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        try ElevateMacrosExpansion.TapeDecodableMacro.expansion(
            of: node, attachedTo: declaration, providingExtensionsOf: type, conformingTo: protocols, in: context)
    }
}

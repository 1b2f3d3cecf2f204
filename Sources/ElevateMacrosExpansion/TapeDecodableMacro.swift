import SwiftSyntax
import SwiftSyntaxMacros

/// `@TapeDecodable`: an extension with `init(fromTape:)`, written as the compiler writes a struct's
/// `init(from:)` (see the macro's declaration in ElevateMacros for the rules).
public struct TapeDecodableMacro: ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard let structDecl = declaration.as(StructDeclSyntax.self) else {
            throw MacroExpansionErrorMessage(
                "@TapeDecodable applies to structs: a class's init(from:) can be inherited and overridden, "
                    + "and an enum's or actor's is not written property by property")
        }
        let source = try extensionSource(
            for: structDecl, typeName: type.trimmedDescription, addsConformance: !protocols.isEmpty)
        guard let extensionDecl = DeclSyntax(stringLiteral: source).as(ExtensionDeclSyntax.self) else {
            throw MacroExpansionErrorMessage("@TapeDecodable could not write its extension")
        }
        return [extensionDecl]
    }

    /// The text of the extension for `structDecl`, named `typeName` (qualified when nested): what
    /// the macro adds, and what the benchmark kit's models hold written out (the tests compare).
    /// - Parameters:
    ///   - structDecl: The struct's declaration.
    ///   - typeName: The name the extension extends.
    ///   - addsConformance: Whether the extension declares the conformance (false when the struct
    ///     already states it).
    /// - Returns: The extension's source, four-space indented.
    /// - Throws: `MacroExpansionErrorMessage` for what the macro refuses.
    public static func extensionSource(
        for structDecl: StructDeclSyntax, typeName: String, addsConformance: Bool
    ) throws -> String {
        let (properties, hasCodingKeys) = try DecodedProperty.all(of: structDecl)
        let access = accessModifier(of: structDecl)
        // Like the compiler's, an initializer whose CodingKeys has no case asks for no container,
        // so that any value decodes; one with a case, even one it does not decode, needs an object.
        var lines = hasCodingKeys ? ["let container = try value.container(keyedBy: CodingKeys.self)"] : []
        if hasCodingKeys, properties.isEmpty { lines.append("_ = container") }
        // The type is inferred from the property's, not written: a type named inside the struct (a
        // nested type's sibling, `Inner` inside `Outer`) is not in scope in `extension Outer.Inner`.
        for property in properties {
            let method = property.isOptional ? "decodeIfPresent" : "decode"
            lines.append("self.\(property.spelling) = try container.\(method)(forKey: .\(property.spelling))")
        }
        let conformance = addsConformance ? ": ElevateJSON.TapeDecodable" : ""
        return """
            extension \(typeName)\(conformance) {
                \(access)init(fromTape value: ElevateJSON.TapeDecodingValue) throws {
            \(lines.map { "        " + $0 }.joined(separator: "\n"))
                }
            }
            """
    }

    /// `public ` or `package ` when the struct is (an `open` struct cannot be), so that the
    /// initializer is as visible as the conformance needs; else nothing.
    private static func accessModifier(of structDecl: StructDeclSyntax) -> String {
        for modifier in structDecl.modifiers {
            switch modifier.name.tokenKind {
            case .keyword(.public): return "public "
            case .keyword(.package): return "package "
            default: continue
            }
        }
        return ""
    }
}

/// A stored property that `init(from:)` decodes.
struct DecodedProperty {
    /// Its name, which is also its `CodingKeys` case.
    let name: String
    /// Its name as written: with backticks when it is a keyword (`` `default` ``, `` `self` ``).
    let spelling: String
    /// Whether its type is written as an optional (`T?`, `T!`, `Optional<T>`), which
    /// `init(from:)` reads with `decodeIfPresent`.
    let isOptional: Bool

    /// The properties `init(from:)` decodes, in declaration order: the stored instance properties
    /// that are not a `let` with an initial value, and, when the struct declares `CodingKeys`, only
    /// those it names. Also whether `CodingKeys` has a case: the declared enum's, or the one the
    /// compiler writes, with a case per stored instance property.
    static func all(of structDecl: StructDeclSyntax) throws -> (properties: [DecodedProperty], hasCodingKeys: Bool) {
        var codingKeyNames: Set<String>?
        var properties: [DecodedProperty] = []
        var storedCount = 0
        for member in structDecl.memberBlock.members {
            if let enumDecl = member.decl.as(EnumDeclSyntax.self), enumDecl.name.text == "CodingKeys" {
                codingKeyNames = Set(
                    enumDecl.memberBlock.members.flatMap { caseMember -> [String] in
                        guard let caseDecl = caseMember.decl.as(EnumCaseDeclSyntax.self) else { return [] }
                        return caseDecl.elements.map { $0.name.text.trimmingBackticks }
                    })
            }
            if let initializer = member.decl.as(InitializerDeclSyntax.self),
                initializer.signature.parameterClause.parameters.first?.firstName.text == "from"
            {
                throw MacroExpansionErrorMessage(
                    "@TapeDecodable writes the init(from:) the compiler would; this struct writes its own")
            }
            if let ifConfig = member.decl.as(IfConfigDeclSyntax.self), declaresProperty(ifConfig) {
                throw MacroExpansionErrorMessage(
                    "@TapeDecodable does not read properties declared inside #if; move them out of it")
            }
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            let (decoded, stored) = try storedProperties(variable)
            properties += decoded
            storedCount += stored
        }
        guard let codingKeyNames else { return (properties, storedCount > 0) }
        return (properties.filter { codingKeyNames.contains($0.name) }, !codingKeyNames.isEmpty)
    }

    /// The decoded properties of one declaration (`var a, b: Int` declares two), and how many
    /// stored instance properties it declares.
    private static func storedProperties(_ variable: VariableDeclSyntax) throws -> ([DecodedProperty], Int) {
        let isStatic = variable.modifiers.contains {
            [.keyword(.static), .keyword(.class), .keyword(.lazy)].contains($0.name.tokenKind)
        }
        if isStatic { return ([], 0) }
        var storedCount = 0
        let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
        var found: [DecodedProperty] = []
        var pendingNames: [(name: String, spelling: String)] = []
        for binding in variable.bindings {
            guard let identifier = binding.pattern.as(IdentifierPatternSyntax.self) else {
                throw MacroExpansionErrorMessage("@TapeDecodable needs one name per property, not a tuple pattern")
            }
            let spelling = identifier.identifier.text
            let name = spelling.trimmingBackticks
            if let accessors = binding.accessorBlock, isComputed(accessors) { continue }
            storedCount += 1
            if isLet, binding.initializer != nil { continue }
            if !variable.attributes.isEmpty {
                throw MacroExpansionErrorMessage(
                    "@TapeDecodable does not decode property wrappers ('\(name)'); init(from:) decodes their wrapper type"
                )
            }
            guard let annotation = binding.typeAnnotation else {
                if binding.initializer != nil {
                    throw MacroExpansionErrorMessage(
                        "@TapeDecodable needs the type of '\(name)' written out (var \(name): Type = ...)")
                }
                // `var a, b: Int`: the type written after the last name is every name's.
                pendingNames.append((name, spelling))
                continue
            }
            let isOptional = isWrittenOptional(annotation.type)
            for pending in pendingNames + [(name, spelling)] {
                found.append(
                    DecodedProperty(name: pending.name, spelling: pending.spelling, isOptional: isOptional))
            }
            pendingNames = []
        }
        return (found, storedCount)
    }

    /// Whether any clause of an `#if` declares a property (which `init(from:)` decodes when the
    /// clause is active, and which the macro cannot see).
    private static func declaresProperty(_ ifConfig: IfConfigDeclSyntax) -> Bool {
        ifConfig.clauses.contains { clause in
            switch clause.elements {
            case .decls(let members):
                return members.contains {
                    $0.decl.is(VariableDeclSyntax.self)
                        || ($0.decl.as(IfConfigDeclSyntax.self).map(declaresProperty) ?? false)
                }
            default:
                return false
            }
        }
    }

    /// Whether an accessor block makes a computed property (observers keep it stored).
    private static func isComputed(_ block: AccessorBlockSyntax) -> Bool {
        switch block.accessors {
        case .getter: return true
        case .accessors(let list):
            return list.contains {
                ![.keyword(.willSet), .keyword(.didSet)].contains($0.accessorSpecifier.tokenKind)
            }
        }
    }

    /// Whether `type` is written `T?`, `T!`, `Optional<T>` or `Swift.Optional<T>`.
    private static func isWrittenOptional(_ type: TypeSyntax) -> Bool {
        if type.is(OptionalTypeSyntax.self) || type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return true }
        let text = type.trimmedDescription
        return (text.hasPrefix("Optional<") || text.hasPrefix("Swift.Optional<")) && text.hasSuffix(">")
    }
}

extension String {
    /// The name without the backticks of an escaped identifier (`` `default` ``).
    var trimmingBackticks: String {
        hasPrefix("`") && hasSuffix("`") && count > 1 ? String(dropFirst().dropLast()) : self
    }
}

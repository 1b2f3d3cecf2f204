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
        let plan = try DecodingPlan(structDecl)
        let access = accessModifier(of: structDecl)
        var lines: [String] = []
        if let expected = plan.expectedKeys {
            // The struct declares no `CodingKeys`: the compiler's has a case per stored property, in
            // declaration order, unless one is declared elsewhere (an extension), which the macro
            // cannot read. This switch compiles only when the cases are the ones expected.
            lines += ["_ = { (key: CodingKeys) in", "    switch key {"]
            if !expected.isEmpty {
                lines += ["    case " + expected.map { "." + $0 }.joined(separator: ", ") + ":", "        break"]
            }
            lines += ["    }", "}"]
        }
        // Like the compiler's, an initializer whose CodingKeys has no case asks for no container,
        // so that any value decodes; one with a case, even one it does not decode, needs an object.
        if plan.hasKeys {
            lines.append("let container = try value.container(keyedBy: CodingKeys.self)")
            if plan.properties.isEmpty { lines.append("_ = container") }
        }
        // No type is written: the key path lets the compiler choose `decodeIfPresent` or `decode`
        // from the property's type, as it does when it synthesizes `init(from:)` (an optional
        // behind a type alias included), and a type named inside the struct (a nested type's
        // sibling) need not be in scope in the extension.
        for property in plan.properties {
            lines.append(
                "self.\(property.spelling) = try container.decodeProperty(\\Self.\(property.spelling), forKey: .\(property.spelling))")
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
}

/// What the compiler's `init(from:)` of a struct reads, as far as its declaration tells.
struct DecodingPlan {
    /// The properties decoded, in the order `init(from:)` reads them: its `CodingKeys` cases'.
    var properties: [DecodedProperty] = []
    /// Whether `CodingKeys` has a case (then a keyed container is asked for).
    var hasKeys = false
    /// When the struct declares no `CodingKeys`: the cases the compiler's would have (every
    /// stored instance property, as spelled), which the generated code checks.
    var expectedKeys: [String]?

    init(_ structDecl: StructDeclSyntax) throws {
        var declaredKeys: [String]?
        var stored: [(property: DecodedProperty, isDecoded: Bool)] = []
        for member in structDecl.memberBlock.members {
            let decl = member.decl
            if Self.namesCodingKeys(decl) {
                guard let enumDecl = decl.as(EnumDeclSyntax.self) else {
                    throw MacroExpansionErrorMessage(
                        "@TapeDecodable reads a CodingKeys enum declared in the struct; this CodingKeys is not one")
                }
                declaredKeys = try Self.cases(of: enumDecl)
            }
            if let initializer = decl.as(InitializerDeclSyntax.self), Self.isInitFromDecoder(initializer) {
                throw MacroExpansionErrorMessage(
                    "@TapeDecodable writes the init(from:) the compiler would; this struct writes its own")
            }
            if let ifConfig = decl.as(IfConfigDeclSyntax.self), Self.holdsDecodingDeclarations(ifConfig) {
                throw MacroExpansionErrorMessage(
                    "@TapeDecodable cannot read properties, initializers or CodingKeys inside #if; move them out of it")
            }
            guard let variable = decl.as(VariableDeclSyntax.self) else { continue }
            stored += try Self.storedProperties(variable)
        }
        if let declaredKeys {
            let byName = Dictionary(stored.map { ($0.property.name, $0) }, uniquingKeysWith: { first, _ in first })
            properties = declaredKeys.compactMap { name in byName[name].flatMap { $0.isDecoded ? $0.property : nil } }
            hasKeys = !declaredKeys.isEmpty
        } else {
            properties = stored.filter(\.isDecoded).map(\.property)
            hasKeys = !stored.isEmpty
            expectedKeys = stored.map(\.property.spelling)
        }
    }

    /// Whether `decl` declares something named `CodingKeys` (an enum, a type alias, a struct).
    private static func namesCodingKeys(_ decl: DeclSyntax) -> Bool {
        if let enumDecl = decl.as(EnumDeclSyntax.self) { return enumDecl.name.text == "CodingKeys" }
        if let alias = decl.as(TypeAliasDeclSyntax.self) { return alias.name.text == "CodingKeys" }
        if let structDecl = decl.as(StructDeclSyntax.self) { return structDecl.name.text == "CodingKeys" }
        if let classDecl = decl.as(ClassDeclSyntax.self) { return classDecl.name.text == "CodingKeys" }
        return false
    }

    /// The case names of a `CodingKeys` enum, in order.
    private static func cases(of enumDecl: EnumDeclSyntax) throws -> [String] {
        var names: [String] = []
        for member in enumDecl.memberBlock.members {
            if member.decl.is(IfConfigDeclSyntax.self) {
                throw MacroExpansionErrorMessage("@TapeDecodable cannot read CodingKeys cases inside #if")
            }
            guard let caseDecl = member.decl.as(EnumCaseDeclSyntax.self) else { continue }
            names += caseDecl.elements.map { $0.name.text.trimmingBackticks }
        }
        return names
    }

    /// Whether `initializer` is `init(from:)` taking a decoder (not, say, `init(from dto: DTO)`).
    private static func isInitFromDecoder(_ initializer: InitializerDeclSyntax) -> Bool {
        let parameters = initializer.signature.parameterClause.parameters
        guard parameters.count == 1, let parameter = parameters.first, parameter.firstName.text == "from" else {
            return false
        }
        return parameter.type.trimmedDescription.contains("Decoder")
    }

    /// Whether any clause of an `#if` declares a property, an initializer or a `CodingKeys`, which
    /// `init(from:)` follows when the clause is active and the macro cannot see.
    private static func holdsDecodingDeclarations(_ ifConfig: IfConfigDeclSyntax) -> Bool {
        ifConfig.clauses.contains { clause in
            guard case .decls(let members) = clause.elements else { return false }
            return members.contains { member in
                let decl = member.decl
                if decl.is(VariableDeclSyntax.self) || decl.is(InitializerDeclSyntax.self) || namesCodingKeys(decl) {
                    return true
                }
                return decl.as(IfConfigDeclSyntax.self).map(holdsDecodingDeclarations) ?? false
            }
        }
    }

    /// The stored instance properties of one declaration (`var a, b: Int` declares two), each
    /// with whether `init(from:)` decodes it (not a `let` with an initial value).
    private static func storedProperties(_ variable: VariableDeclSyntax) throws -> [(
        property: DecodedProperty, isDecoded: Bool
    )] {
        let isStatic = variable.modifiers.contains {
            [.keyword(.static), .keyword(.class), .keyword(.lazy)].contains($0.name.tokenKind)
        }
        if isStatic { return [] }
        let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
        var found: [(property: DecodedProperty, isDecoded: Bool)] = []
        for binding in variable.bindings {
            guard let identifier = binding.pattern.as(IdentifierPatternSyntax.self) else {
                throw MacroExpansionErrorMessage("@TapeDecodable needs one name per property, not a tuple pattern")
            }
            let spelling = identifier.identifier.text
            let name = spelling.trimmingBackticks
            if let accessors = binding.accessorBlock, isComputed(accessors) { continue }
            let isDecoded = !(isLet && binding.initializer != nil)
            if isDecoded, let attribute = customAttribute(of: variable) {
                throw MacroExpansionErrorMessage(
                    "@TapeDecodable does not decode '\(name)', which has @\(attribute): init(from:) decodes a property "
                        + "wrapper's own type, and another macro's storage is not visible here")
            }
            if isDecoded, binding.typeAnnotation == nil, binding.initializer != nil {
                throw MacroExpansionErrorMessage(
                    "@TapeDecodable needs the type of '\(name)' written out (var \(name): Type = ...)")
            }
            found.append((DecodedProperty(name: name, spelling: spelling), isDecoded))
        }
        return found
    }

    /// The first attribute of `variable` named like a type (a property wrapper or a macro), not
    /// one of the language's own (`@available`, `@objc`, …), which are lower case.
    private static func customAttribute(of variable: VariableDeclSyntax) -> String? {
        for element in variable.attributes {
            guard let attribute = element.as(AttributeSyntax.self) else { return "#if" }
            let name = attribute.attributeName.trimmedDescription
            if let first = name.first, first.isUppercase { return name }
        }
        return nil
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
}

extension String {
    /// The name without the backticks of an escaped identifier (`` `default` ``).
    var trimmingBackticks: String {
        hasPrefix("`") && hasSuffix("`") && count > 1 ? String(dropFirst().dropLast()) : self
    }
}

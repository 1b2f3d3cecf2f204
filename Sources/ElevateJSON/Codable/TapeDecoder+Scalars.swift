import Foundation

/// Reading scalars off the tape, with Foundation's errors. Every reader takes the value's tape index
/// and the site and component that name it, so that an error carries the right coding path.
extension TapeDecoder {
    @inline(__always)
    func readString(at i: Int, _ site: ContainerSite, _ component: @autoclosure () -> CodingPathComponent?) throws
        -> String
    {
        let word = tape.words[i]
        switch JSONTape.kind(of: word) {
        case .string: return String(decoding: tape.arenaText(word), as: UTF8.self)
        case .inlineString: return tape.string(at: i)
        default: throw mismatch(String.self, at: i, site, component())
        }
    }

    /// A `Bool`. A null is `typeMismatch`, not `valueNotFound` as for the other types: Foundation's
    /// decoder reports it so in keyed, unkeyed and single-value containers alike.
    @inline(__always)
    func readBool(at i: Int, _ site: ContainerSite, _ component: @autoclosure () -> CodingPathComponent?) throws -> Bool
    {
        switch tape.kind(at: i) {
        case .true: return true
        case .false: return false
        case .null:
            throw fail(
                .typeMismatch(
                    Bool.self,
                    DecodingError.Context(
                        codingPath: codingPath(site, appending: component()),
                        debugDescription: "Expected to decode Bool but found null instead.")),
                at: i)
        default: throw mismatch(Bool.self, at: i, site, component())
        }
    }

    /// An integer of type `T`, only when the number is exactly one in `T`'s range; see
    /// ``ElevateJSONDecoder`` for numbers written with a fraction or exponent.
    @inline(__always)
    func readInteger<T: FixedWidthInteger>(
        _ type: T.Type, at i: Int, _ site: ContainerSite, _ component: @autoclosure () -> CodingPathComponent?
    ) throws -> T {
        let word = tape.words[i]
        if JSONTape.kind(of: word) == .int56, let value = T(exactly: Int(bitPattern: UInt(word << 8)) >> 8) {
            return value
        }
        return try readIntegerSlowly(type, at: i, site, component())
    }

    private func readIntegerSlowly<T: FixedWidthInteger>(
        _ type: T.Type, at i: Int, _ site: ContainerSite, _ component: @autoclosure () -> CodingPathComponent?
    ) throws -> T {
        guard let number = tape.number(at: i) else { throw mismatch(type, at: i, site, component()) }
        let value: T?
        switch number {
        case .int(let integer): value = T(exactly: integer)
        case .uint(let integer): value = T(exactly: integer)
        case .double(let double):
            // Integral doubles of 2^53 or more may already have been rounded by parsing.
            value = JSONNumber.integral(double).flatMap { T(exactly: $0) }
        // Digits beyond 64 bits: exact for a type that holds them (`Int128`), nil otherwise.
        case .large(let text): value = T(text)
        }
        guard let value else {
            var reason = "does not fit in \(type)"
            if case .double(let double) = number, double.rounded(.towardZero) == double, double.magnitude >= 0x1p53 {
                // Not a range problem: the rule for numbers written with a fraction or exponent.
                reason += " (a number written with a fraction or exponent is read as an integer only below 2^53)"
            }
            throw fail(
                .dataCorrupted(
                    DecodingError.Context(
                        codingPath: codingPath(site, appending: component()),
                        debugDescription: "Parsed JSON number <\(numberDescription(at: i))> \(reason).")),
                at: i)
        }
        return value
    }

    func readDouble(at i: Int, _ site: ContainerSite, _ component: @autoclosure () -> CodingPathComponent?) throws
        -> Double
    {
        let word = tape.words[i]
        switch JSONTape.kind(of: word) {
        case .double56: return Double(bitPattern: (word & JSONTape.payloadMask) << 8)
        case .double64: return Double(bitPattern: tape.words[i + 1])
        case .int56: return Double(Int(bitPattern: UInt(word << 8)) >> 8)
        case .int64, .uint64, .large:
            switch tape.number(at: i)! {
            case .int(let value): return Double(value)
            case .uint(let value): return Double(value)
            case .double(let value): return value
            case .large(let text):
                // A number kept as text overflowed, underflowed or has more than 64 bits; its text
                // is never zero (zeros are `.double`), so a 0 here is an underflow, which Foundation
                // rejects as it rejects an overflow: `1e-400` is not 0.
                if let value = Double(text), value.isFinite, value != 0 { return value }
                throw fail(
                    .dataCorrupted(
                        DecodingError.Context(
                            codingPath: codingPath(site, appending: component()),
                            debugDescription: "Parsed JSON number <\(text)> does not fit in Double.")),
                    at: i)
            }
        case .string, .inlineString:
            if case .convertFromString(let positiveInfinity, let negativeInfinity, let nan) =
                context.settings.nonConformingFloatDecodingStrategy
            {
                let string = tape.string(at: i)
                if string == positiveInfinity { return .infinity }
                if string == negativeInfinity { return -.infinity }
                if string == nan { return .nan }
            }
            throw mismatch(Double.self, at: i, site, component())
        default:
            throw mismatch(Double.self, at: i, site, component())
        }
    }

    func readFloat(at i: Int, _ site: ContainerSite, _ component: @autoclosure () -> CodingPathComponent?) throws
        -> Float
    {
        // A number is rounded to Float once, as Foundation's strtof does, from its text or its exact
        // value (see `JSONTape.float(at:)`): through a Double, an integer of 2^53 or more, or a
        // number with more digits than a Double holds, can round twice and land on the wrong side of
        // a tie (`1.00000005960464477539063` as 1.0 instead of 1.0000001).
        guard let float = tape.float(at: i) else {
            // Not a number: a non-conforming float string, or a mismatch, as for a Double.
            do {
                return Float(try readDouble(at: i, site, component()))
            } catch DecodingError.typeMismatch(_, let context) {
                throw DecodingError.typeMismatch(Float.self, context)
            } catch DecodingError.valueNotFound(_, let context) {
                throw DecodingError.valueNotFound(Float.self, context)
            }
        }
        // Checked after rounding, as Foundation does: 3.4028235e38 is a hair above Float's largest
        // value, but rounds to it. A nonzero number that rounds to a zero Float underflowed;
        // Foundation rejects it (`1e-50`).
        guard float.isFinite, float != 0 || tape.number(at: i).map(Self.isZero) == true else {
            throw fail(
                .dataCorrupted(
                    DecodingError.Context(
                        codingPath: codingPath(site, appending: component()),
                        debugDescription: "Parsed JSON number <\(numberDescription(at: i))> does not fit in Float.")),
                at: i)
        }
        return float
    }

    private static func isZero(_ number: JSONNumber) -> Bool {
        switch number {
        case .int(let value): value == 0
        case .uint(let value): value == 0
        case .double(let value): value == 0
        case .large: false
        }
    }

    /// A number's text for an error message: its source text when the tape kept it.
    private func numberDescription(at i: Int) -> String {
        if let text = tape.numberText(at: i) { return text }
        switch tape.number(at: i) {
        case .int(let value): return "\(value)"
        case .uint(let value): return "\(value)"
        case .double(let value): return "\(value)"
        case .large(let text): return text
        case nil: return ""
        }
    }

    /// A `Decimal`, exactly (see `JSONTape.decimal(at:)`): from the source text when the tape kept
    /// it, otherwise from the integer or from the `Double`'s shortest text, which is the source text
    /// for numbers of up to 15 significant digits. A number no `Decimal` holds exactly (more than 38
    /// digits, or an exponent beyond its range) is `dataCorrupted`, never `NaN` or a number with
    /// digits dropped.
    func readDecimal(at i: Int, _ site: ContainerSite, _ component: @autoclosure () -> CodingPathComponent?) throws
        -> Decimal
    {
        guard tape.number(at: i) != nil else { throw mismatch(Decimal.self, at: i, site, component()) }
        if let value = tape.decimal(at: i) { return value }
        throw fail(
            .dataCorrupted(
                DecodingError.Context(
                    codingPath: codingPath(site, appending: component()),
                    debugDescription: "Parsed JSON number <\(numberDescription(at: i))> does not fit in Decimal.")),
            at: i)
    }

    /// The current value as a `Date`, by the date strategy.
    func readDate() throws -> Date {
        switch context.dateMode {
        case .deferredToDate:
            return try Date(from: self)
        case .secondsSince1970:
            return Date(timeIntervalSince1970: try readDouble(at: index, currentSite, nil))
        case .millisecondsSince1970:
            return Date(timeIntervalSince1970: try readDouble(at: index, currentSite, nil) / 1000)
        case .iso8601:
            let string = try readString(at: index, currentSite, nil)
            guard let date = try? Date.ISO8601FormatStyle().parse(string) else {
                throw corrupted("Expected date string to be ISO8601-formatted.")
            }
            return date
        case .formatted(let formatter, let fastPath, let offsetSeconds):
            let string = try readString(at: index, currentSite, nil)
            if let fastPath, let date = fastPath.date(from: string, offsetSeconds: offsetSeconds) { return date }
            guard let date = formatter.date(from: string) else {
                throw corrupted("Date string does not match format expected by formatter.")
            }
            return date
        case .custom(let closure):
            return try closure(self)
        }
    }

    /// The current value as `Data`, by the data strategy.
    func readData() throws -> Data {
        switch context.settings.dataDecodingStrategy {
        case .deferredToData:
            return try Data(from: self)
        case .base64:
            let string = try readString(at: index, currentSite, nil)
            guard let data = Data(base64Encoded: string) else {
                throw corrupted("Encountered Data is not valid Base64.")
            }
            return data
        case .custom(let closure):
            return try closure(self)
        }
    }

    /// The current value as a `URL`, from a string.
    func readURL() throws -> URL {
        let string = try readString(at: index, currentSite, nil)
        guard let url = URL(string: string) else { throw corrupted("Invalid URL string.") }
        return url
    }

    // MARK: Containers

    /// Checks that the value at `i` is an object (or an array), with Foundation's errors.
    @inline(__always)
    func expectContainer(
        object: Bool, at i: Int, _ site: ContainerSite, _ component: @autoclosure () -> CodingPathComponent?
    ) throws {
        let kind = tape.kind(at: i)
        if kind == (object ? .object : .array) {
            // Each container is a level of recursion of the decode: past a few, check the stack.
            if site.depth &+ site.suffix.count >= StackGuard.checkedLevels { try checkStack(at: i, site, component()) }
            return
        }
        let type: Any.Type = object ? [String: Any].self : [Any].self
        if kind == .null {
            throw fail(
                .valueNotFound(
                    type,
                    DecodingError.Context(
                        codingPath: codingPath(site, appending: component()),
                        debugDescription:
                            "Cannot get \(object ? "keyed" : "unkeyed") decoding container -- found null value instead")
                ),
                at: i)
        }
        throw mismatch(type, at: i, site, component())
    }

    /// Throws `dataCorrupted` when the stack has too little room left to decode the container
    /// at `i` (see ``StackGuard``).
    @inline(never)
    func checkStack(at i: Int, _ site: ContainerSite, _ component: @autoclosure () -> CodingPathComponent?) throws {
        guard let stack = StackGuard.ofCurrentThread, !stack.hasRoom else { return }
        let path = codingPath(site, appending: component())
        throw fail(
            .dataCorrupted(
                DecodingError.Context(
                    codingPath: path, debugDescription: stack.message(levels: path.count + 1, unit: "levels"))),
            at: i)
    }

    // MARK: Errors

    /// Records where `error` arose and returns it.
    func fail(_ error: DecodingError, at i: Int) -> DecodingError {
        context.noteError(error, at: i, path: error.codingPathStrings, tape: tape)
        return error
    }

    /// `valueNotFound` for a null, `typeMismatch` for any other value that is not a `type`.
    func mismatch(
        _ type: Any.Type, at i: Int, _ site: ContainerSite, _ component: @autoclosure () -> CodingPathComponent?
    )
        -> DecodingError
    {
        let path = codingPath(site, appending: component())
        let kind = tape.kind(at: i)
        if kind == .null {
            return fail(
                .valueNotFound(
                    type,
                    DecodingError.Context(
                        codingPath: path,
                        debugDescription: "Cannot get value of type \(type) -- found null value instead")),
                at: i)
        }
        return fail(
            .typeMismatch(
                type,
                DecodingError.Context(
                    codingPath: path,
                    debugDescription: "Expected to decode \(type) but found \(Self.describe(kind)) instead.")),
            at: i)
    }

    /// `dataCorrupted` at the current value.
    func corrupted(_ message: String) -> DecodingError {
        fail(.dataCorrupted(DecodingError.Context(codingPath: codingPath, debugDescription: message)), at: index)
    }

    /// A value's kind as Foundation's messages name it.
    static func describe(_ kind: JSONTape.Kind) -> String {
        switch kind {
        case .null: "null"
        case .true, .false: "bool"
        case .string, .inlineString: "a string"
        case .object: "a dictionary"
        case .array: "an array"
        default: "number"
        }
    }
}

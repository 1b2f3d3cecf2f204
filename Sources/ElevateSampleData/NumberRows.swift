/// The items of ``SampleDocument/numbers``: rows of eight numbers.
///
/// Every number is written digit by digit from integers, never through `Double`'s description,
/// so the text is the same on every platform.
struct NumberRows: SampleItemSource {
    private var generator: SplitMix64

    /// Numbers per row.
    static let rowLength = 8

    init(seed: UInt64) {
        generator = SplitMix64(seed: seed)
    }

    func header(itemCount: Int) -> [UInt8] {
        Array("{\"numbers\":[\n".utf8)
    }

    let footer: [UInt8] = Array("]}\n".utf8)

    mutating func appendItem(to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "["))
        for index in 0..<Self.rowLength {
            if index > 0 { buffer.append(UInt8(ascii: ",")) }
            appendNumber(to: &buffer)
        }
        buffer.append(UInt8(ascii: "]"))
    }

    private mutating func appendNumber(to buffer: inout [UInt8]) {
        let kind = generator.next(below: 100)
        switch kind {
        case 0..<25:
            // Small integers, the most common numbers in real documents.
            buffer.appendDecimal(generator.next(in: 0...999))
        case 25..<37:
            buffer.appendDecimal(generator.next(in: -1_000_000 ... -1))
        case 37..<42:
            // Within 1000 of the Int64 limits: exercises the exact-integer edge of converters.
            let offset = generator.next(in: 0...999)
            buffer.appendDecimal(generator.chance(50) ? Int(Int64.max) - offset : Int(Int64.min) + offset)
        case 42..<50:
            buffer.appendDecimal(generator.next(in: -999_999_999_999_999...999_999_999_999_999))
        case 50..<80:
            // Decimals like -123.0456: an integer part and 1–6 fraction digits, leading zeros kept.
            if generator.chance(30) { buffer.append(UInt8(ascii: "-")) }
            buffer.appendDecimal(UInt(generator.next(in: 0...99_999)))
            buffer.append(UInt8(ascii: "."))
            let fractionDigits = generator.next(in: 1...6)
            buffer.appendDecimal(
                UInt(generator.next(in: 0...999_999) % Self.powersOfTen[fractionDigits]),
                minimumDigits: fractionDigits)
        default:
            // Exponents like 1.5e-7 or -3.25E+12: a short mantissa, either letter case, optional sign.
            if generator.chance(30) { buffer.append(UInt8(ascii: "-")) }
            buffer.appendDecimal(UInt(generator.next(in: 1...9)))
            if generator.chance(80) {
                buffer.append(UInt8(ascii: "."))
                buffer.appendDecimal(UInt(generator.next(in: 0...9999)))
            }
            buffer.append(generator.chance(50) ? UInt8(ascii: "e") : UInt8(ascii: "E"))
            switch generator.next(below: 3) {
            case 0: buffer.append(UInt8(ascii: "-"))
            case 1: buffer.append(UInt8(ascii: "+"))
            default: break
            }
            buffer.appendDecimal(UInt(generator.next(in: 0...300)))
        }
    }

    private static let powersOfTen = [1, 10, 100, 1000, 10_000, 100_000, 1_000_000]
}

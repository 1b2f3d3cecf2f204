import Testing

@testable import Elevate

/// The callbacks read YAJL's count of consumed bytes straight from the handle when the layout
/// check passes; debug builds also compare every such read with `yajl_get_bytes_consumed`
/// (an assertion in `JSONEventParser.tokenEnd`), so the whole suite exercises it.
@Suite struct YAJLConsumedBytesTests {
    @Test func theLayoutOfThisYAJLIsRecognized() {
        // YAJL 2.1 (Debian's libyajl-dev and every 2.x release) keeps the count in the fifth
        // pointer-sized field. Were it not recognized, parsing would still be right, only slower:
        // this test says so rather than letting it pass unnoticed.
        #expect(YAJLConsumedBytes.fieldOffset == 4 * MemoryLayout<Int>.stride)
    }

    @Test func aWrongOffsetFailsTheCheck() {
        // The check must be able to refuse: every other field of the handle's first ten.
        for field in 0..<10 where field != 4 {
            #expect(YAJLConsumedBytes.verifiedOffset(field * MemoryLayout<Int>.stride) == nil, "field \(field)")
        }
    }
}

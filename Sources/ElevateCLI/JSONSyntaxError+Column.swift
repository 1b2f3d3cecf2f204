import Elevate

extension JSONSyntaxError {
    /// The one-based column of the offending byte, where the library's position names it exactly;
    /// ``JSONSyntaxError/column`` otherwise.
    ///
    /// The library reports YAJL's position, which is the offending byte itself for some errors and
    /// just past the offending token for others, and it does not say which, nor how long the token
    /// was. One case is exact whatever the chunking: YAJL's lexer rejects a byte that cannot start
    /// a token ("invalid char") after reading exactly that byte, so it is the byte just before the
    /// position. The other "past the token" errors (`[1,,2]`, `{"a" 2}`, trailing garbage) need the
    /// token's start, which only the library can know; they keep the library's column.
    var exactColumn: Int {
        if kind == .syntax, message == "invalid char in json text", column > 1 { return column - 1 }
        return column
    }
}

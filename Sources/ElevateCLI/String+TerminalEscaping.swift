extension String {
    /// The string with its control characters escaped, for printing a file name in a message:
    /// `\n`, `\r`, `\t`, and `\u{1B}` for the others (C0, DEL and C1), so that a name cannot
    /// break a line, move the cursor or send an escape sequence to the terminal.
    ///
    /// ```swift
    /// "a\nb\u{1B}[2J.json".escapedForTerminal  // #"a\nb\u{1B}[2J.json"#
    /// ```
    var escapedForTerminal: String {
        guard unicodeScalars.contains(where: \.isControl) else { return self }
        var text = ""
        for scalar in unicodeScalars {
            switch scalar {
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.isControl: text += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text
    }
}

extension Unicode.Scalar {
    /// C0 controls, DEL and C1 controls.
    fileprivate var isControl: Bool {
        value < 0x20 || (0x7F...0x9F).contains(value)
    }
}

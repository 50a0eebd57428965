extension TranscriptCue {
    /// The text as it should be read aloud or shown on the small screen: WebVTT tags (`<v Guide>`,
    /// `<i>`, `<00:01.000>`) removed and the character references WebVTT defines by name decoded.
    public var plainText: String {
        var result = ""
        var insideTag = false
        var pendingReference: String? // text after "&" until ";"
        for character in text {
            if insideTag {
                if character == ">" { insideTag = false }
                continue
            }
            if var reference = pendingReference {
                if character == ";" {
                    result += Self.namedReferences[reference] ?? "&\(reference);"
                    pendingReference = nil
                } else if character.isLetter && reference.count < 8 {
                    reference.append(character)
                    pendingReference = reference
                } else {
                    result += "&\(reference)"
                    pendingReference = nil
                    if character == "<" { insideTag = true } else { result.append(character) }
                }
                continue
            }
            switch character {
            case "<": insideTag = true
            case "&": pendingReference = ""
            default: result.append(character)
            }
        }
        if let pendingReference { result += "&\(pendingReference)" }
        return result
    }

    private static let namedReferences: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "nbsp": "\u{A0}", "lrm": "\u{200E}", "rlm": "\u{200F}",
    ]
}

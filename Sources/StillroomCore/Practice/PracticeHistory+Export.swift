import FoundationEssentials

// The owner's data, taken away whole: every run, oldest first (by id), as JSON or CSV (RFC 4180).
// Dates a clock could not vouch for are exported as unknown, never as 1970; the raw stored value is
// kept beside them so nothing is lost.

extension PracticeHistory {
    /// The export's format name and version, written at the top of the JSON.
    public static let exportFormat = "stillroom.practice-history"
    public static let exportVersion = 1

    /// All runs as a JSON document: `{"format", "version", "dayBoundary", "runs": [...]}`.
    public func exportJSON() -> JSONValue {
        .object([
            "format": .string(Self.exportFormat),
            "version": .number(Double(Self.exportVersion)),
            "dayBoundary": .string(calendar.dayBoundary.settingValue),
            "runs": .array(runsInExportOrder().map(exportObject)),
        ])
    }

    /// `exportJSON()` as text: sorted keys, indented, "/" unescaped; ends with a newline.
    public func exportJSONText() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(exportJSON()) else { return "{}\n" } // plain values always encode
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// The CSV header, in column order.
    public static let csvColumns = [
        "run_id", "session_id", "date", "practice_day", "local_start", "started_at_utc", "started_at_unix_ms",
        "clock_trusted", "listening_seconds", "covered_seconds", "recording_seconds", "completed", "completed_at_utc",
    ]

    /// All runs as CSV (RFC 4180): a header row, CRLF line ends, fields quoted when they hold a comma,
    /// a double quote, CR or LF, with quotes doubled.
    public func exportCSV() -> String {
        var text = Self.csvColumns.joined(separator: ",") + "\r\n"
        for run in runsInExportOrder() {
            let dating = dating(of: run)
            let fields: [String] = [
                run.id.map { String($0) } ?? "",
                run.sessionID,
                Self.dateStatus(dating),
                dating.practiceDay?.description ?? "",
                Self.localStartText(dating),
                run.clockTrusted ? Self.utcText(run.startedAt) : "",
                String(run.startedAt),
                run.clockTrusted ? "true" : "false",
                Self.decimalText(run.actualListeningSeconds),
                Self.decimalText(run.coveredSeconds),
                Self.decimalText(run.recordingSeconds),
                run.completedAt == nil ? "false" : "true",
                run.clockTrusted ? run.completedAt.map(Self.utcText) ?? "" : "",
            ]
            text += fields.map(Self.csvField).joined(separator: ",") + "\r\n"
        }
        return text
    }

    /// One CSV field, quoted only when RFC 4180 requires it.
    public static func csvField(_ value: String) -> String {
        let needsQuotes = value.unicodeScalars.contains { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" }
        guard needsQuotes else { return value }
        var quoted = "\""
        for character in value.unicodeScalars {
            if character == "\"" { quoted += "\"\"" } else { quoted.unicodeScalars.append(character) }
        }
        return quoted + "\""
    }

    // MARK: Internals

    private func runsInExportOrder() -> [PracticeRunRecord] {
        runs.sorted { a, b in
            switch (a.id, b.id) {
            case let (x?, y?): x < y
            case (.some, nil): true
            case (nil, .some): false
            case (nil, nil): a.startedAt < b.startedAt
            }
        }
    }

    private func exportObject(_ run: PracticeRunRecord) -> JSONValue {
        let dating = dating(of: run)
        var object: [String: JSONValue] = [
            "id": run.id.map { .number(Double($0)) } ?? .null,
            "sessionId": .string(run.sessionID),
            "date": .string(Self.dateStatus(dating)),
            "practiceDay": dating.practiceDay.map { .string($0.description) } ?? .null,
            "localStart": Self.localStartText(dating).isEmpty ? .null : .string(Self.localStartText(dating)),
            "startedAt": run.clockTrusted ? .string(Self.utcText(run.startedAt)) : .null,
            "startedAtUnixMs": .number(Double(run.startedAt)),
            "clockTrusted": .bool(run.clockTrusted),
            "listeningSeconds": .number(Self.milliRounded(run.actualListeningSeconds)),
            "coveredSeconds": .number(Self.milliRounded(run.coveredSeconds)),
            "recordingSeconds": .number(Self.milliRounded(run.recordingSeconds)),
            "coveredRanges": .array(run.coveredRanges.map {
                .array([.number(Self.milliRounded($0.start)), .number(Self.milliRounded($0.end))])
            }),
            "completed": .bool(run.completedAt != nil),
            "completedAtUnixMs": run.completedAt.map { .number(Double($0)) } ?? .null,
            "updatedAtUnixMs": .number(Double(run.updatedAt)),
        ]
        object["completedAt"] = run.clockTrusted ? run.completedAt.map { .string(Self.utcText($0)) } ?? .null : .null
        return .object(object)
    }

    private static func dateStatus(_ dating: PracticeRunDating) -> String {
        switch dating {
        case .dated: "dated"
        case .clampedToToday: "clamped-to-today"
        case .unknown: "unknown"
        }
    }

    private static func localStartText(_ dating: PracticeRunDating) -> String {
        guard case .dated(_, let localStart, let offset) = dating else { return "" }
        return localStart.description(utcOffset: offset)
    }

    /// "2024-03-31T01:30:00.250Z" (milliseconds only when there are any).
    static func utcText(_ milliseconds: UnixMilliseconds) -> String {
        let (seconds, millis) = floorDivision(milliseconds, 1000)
        let base = LocalDateTime(unixSeconds: seconds, utcOffset: 0).description
        guard millis != 0 else { return base + "Z" }
        let digits = String(millis)
        return base + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
    }

    /// Seconds with exactly three decimals ("612.500"), from the value rounded to the millisecond.
    static func decimalText(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "" }
        let millis = Int64((seconds * 1000).rounded())
        let sign = millis < 0 ? "-" : ""
        let magnitude = millis.magnitude
        let fraction = String(magnitude % 1000)
        return "\(sign)\(magnitude / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }

    private static func milliRounded(_ seconds: Double) -> Double {
        guard seconds.isFinite else { return 0 }
        return (seconds * 1000).rounded() / 1000
    }
}

// The owner's data, taken away whole: every run, oldest first (by id), as JSON or CSV (RFC 4180).
// Dates a clock could not vouch for are exported as unknown, never as 1970; the raw stored value is
// kept beside them so nothing is lost. Seconds are rounded to the millisecond.

extension PracticeHistory {
    /// The export's format name and version, written at the top of the JSON.
    public static let exportFormat = "stillroom.practice-history"
    public static let exportVersion = 1

    /// All runs as a JSON document: `{"dayBoundary", "format", "runs": [...], "version"}`. For the
    /// control protocol; `exportJSONText()` writes the same document faster.
    public func exportJSON() -> JSONValue {
        .object([
            "format": .string(Self.exportFormat),
            "version": .number(Double(Self.exportVersion)),
            "dayBoundary": .string(calendar.dayBoundary.settingValue),
            "runs": .array(exportOrder().map { exportObject(runs[$0]) }),
        ])
    }

    /// The document of `exportJSON()` as text: keys sorted, one run per line; ends with a newline.
    public func exportJSONText() -> String {
        var out = ExportTextWriter(capacity: 64 + runs.count * 480)
        out.append("{\n  \"dayBoundary\": ")
        out.append(jsonString: calendar.dayBoundary.settingValue)
        out.append(",\n  \"format\": ")
        out.append(jsonString: Self.exportFormat)
        out.append(",\n  \"runs\": [")
        for (position, index) in exportOrder().enumerated() {
            out.append(position == 0 ? "\n    " : ",\n    ")
            writeJSON(runs[index], to: &out)
        }
        out.append(runs.isEmpty ? "],\n  \"version\": " : "\n  ],\n  \"version\": ")
        out.append(integer: Int64(Self.exportVersion))
        out.append("\n}\n")
        return out.text
    }

    /// The CSV header, in column order.
    public static let csvColumns = [
        "run_id", "session_id", "date", "practice_day", "local_start", "started_at_utc", "started_at_unix_ms",
        "clock_trusted", "listening_seconds", "covered_seconds", "recording_seconds", "completed", "completed_at_utc",
    ]

    /// All runs as CSV (RFC 4180): a header row, CRLF line ends, fields quoted when they hold a comma,
    /// a double quote, CR or LF, with quotes doubled. Seconds have three decimals ("612.500").
    public func exportCSV() -> String {
        var out = ExportTextWriter(capacity: 160 + runs.count * 180)
        out.append(Self.csvColumns.joined(separator: ","))
        out.append("\r\n")
        for index in exportOrder() {
            let run = runs[index]
            let dating = dating(of: run)
            if let id = run.id { out.append(integer: id) }
            out.append(byte: UInt8(ascii: ","))
            out.append(csvField: run.sessionID)
            out.append(byte: UInt8(ascii: ","))
            out.append(Self.dateStatus(dating))
            out.append(byte: UInt8(ascii: ","))
            if let day = dating.practiceDay { out.append(date: day) }
            out.append(byte: UInt8(ascii: ","))
            if case .dated(_, let localStart, let offset) = dating {
                out.append(local: localStart)
                out.append(offset: offset)
            }
            out.append(byte: UInt8(ascii: ","))
            if run.clockTrusted { out.append(utcMilliseconds: run.startedAt) }
            out.append(byte: UInt8(ascii: ","))
            out.append(integer: run.startedAt)
            out.append(run.clockTrusted ? ",true," : ",false,")
            out.append(seconds: run.actualListeningSeconds, trimmed: false)
            out.append(byte: UInt8(ascii: ","))
            out.append(seconds: run.coveredSeconds, trimmed: false)
            out.append(byte: UInt8(ascii: ","))
            out.append(seconds: run.recordingSeconds, trimmed: false)
            out.append(run.completedAt == nil ? ",false," : ",true,")
            if run.clockTrusted, let completedAt = run.completedAt { out.append(utcMilliseconds: completedAt) }
            out.append("\r\n")
        }
        return out.text
    }

    /// One CSV field, quoted only when RFC 4180 requires it.
    public static func csvField(_ value: String) -> String {
        var out = ExportTextWriter(capacity: value.utf8.count + 2)
        out.append(csvField: value)
        return out.text
    }

    // MARK: Internals

    /// Indexes of `runs` by id, ascending; runs without an id last, by start time. The store's order
    /// is usually this already, which costs one pass to see.
    private func exportOrder() -> [Int] {
        func precedes(_ a: PracticeRunRecord, _ b: PracticeRunRecord) -> Bool {
            switch (a.id, b.id) {
            case let (x?, y?): x < y
            case (.some, nil): true
            case (nil, .some): false
            case (nil, nil): a.startedAt < b.startedAt
            }
        }
        let order = Array(runs.indices)
        if zip(runs, runs.dropFirst()).allSatisfy({ !precedes($1, $0) }) { return order }
        return order.sorted { precedes(runs[$0], runs[$1]) }
    }

    private func writeJSON(_ run: PracticeRunRecord, to out: inout ExportTextWriter) {
        let dating = dating(of: run)
        out.append("{\"clockTrusted\": ")
        out.append(run.clockTrusted ? "true" : "false")
        out.append(", \"completed\": ")
        out.append(run.completedAt == nil ? "false" : "true")
        out.append(", \"completedAt\": ")
        if run.clockTrusted, let completedAt = run.completedAt {
            out.append(byte: UInt8(ascii: "\""))
            out.append(utcMilliseconds: completedAt)
            out.append(byte: UInt8(ascii: "\""))
        } else {
            out.append("null")
        }
        out.append(", \"completedAtUnixMs\": ")
        if let completedAt = run.completedAt { out.append(integer: completedAt) } else { out.append("null") }
        out.append(", \"coveredRanges\": [")
        for (position, range) in run.coveredRanges.enumerated() {
            out.append(position == 0 ? "[" : ", [")
            out.append(seconds: range.start, trimmed: true)
            out.append(", ")
            out.append(seconds: range.end, trimmed: true)
            out.append("]")
        }
        out.append("], \"coveredSeconds\": ")
        out.append(seconds: run.coveredSeconds, trimmed: true)
        out.append(", \"date\": \"")
        out.append(Self.dateStatus(dating))
        out.append("\", \"id\": ")
        if let id = run.id { out.append(integer: id) } else { out.append("null") }
        out.append(", \"listeningSeconds\": ")
        out.append(seconds: run.actualListeningSeconds, trimmed: true)
        out.append(", \"localStart\": ")
        if case .dated(_, let localStart, let offset) = dating {
            out.append(byte: UInt8(ascii: "\""))
            out.append(local: localStart)
            out.append(offset: offset)
            out.append(byte: UInt8(ascii: "\""))
        } else {
            out.append("null")
        }
        out.append(", \"practiceDay\": ")
        if let day = dating.practiceDay {
            out.append(byte: UInt8(ascii: "\""))
            out.append(date: day)
            out.append(byte: UInt8(ascii: "\""))
        } else {
            out.append("null")
        }
        out.append(", \"recordingSeconds\": ")
        out.append(seconds: run.recordingSeconds, trimmed: true)
        out.append(", \"sessionId\": ")
        out.append(jsonString: run.sessionID)
        out.append(", \"startedAt\": ")
        if run.clockTrusted {
            out.append(byte: UInt8(ascii: "\""))
            out.append(utcMilliseconds: run.startedAt)
            out.append(byte: UInt8(ascii: "\""))
        } else {
            out.append("null")
        }
        out.append(", \"startedAtUnixMs\": ")
        out.append(integer: run.startedAt)
        out.append(", \"updatedAtUnixMs\": ")
        out.append(integer: run.updatedAt)
        out.append("}")
    }

    private func exportObject(_ run: PracticeRunRecord) -> JSONValue {
        let dating = dating(of: run)
        var localStart = JSONValue.null
        if case .dated(_, let reading, let offset) = dating { localStart = .string(reading.description(utcOffset: offset)) }
        return .object([
            "clockTrusted": .bool(run.clockTrusted),
            "completed": .bool(run.completedAt != nil),
            "completedAt": run.clockTrusted ? run.completedAt.map { .string(Self.utcText($0)) } ?? .null : .null,
            "completedAtUnixMs": run.completedAt.map { .number(Double($0)) } ?? .null,
            "coveredRanges": .array(run.coveredRanges.map {
                .array([.number(Self.milliRounded($0.start)), .number(Self.milliRounded($0.end))])
            }),
            "coveredSeconds": .number(Self.milliRounded(run.coveredSeconds)),
            "date": .string(Self.dateStatus(dating)),
            "id": run.id.map { .number(Double($0)) } ?? .null,
            "listeningSeconds": .number(Self.milliRounded(run.actualListeningSeconds)),
            "localStart": localStart,
            "practiceDay": dating.practiceDay.map { .string($0.description) } ?? .null,
            "recordingSeconds": .number(Self.milliRounded(run.recordingSeconds)),
            "sessionId": .string(run.sessionID),
            "startedAt": run.clockTrusted ? .string(Self.utcText(run.startedAt)) : .null,
            "startedAtUnixMs": .number(Double(run.startedAt)),
            "updatedAtUnixMs": .number(Double(run.updatedAt)),
        ])
    }

    private static func dateStatus(_ dating: PracticeRunDating) -> String {
        switch dating {
        case .dated: "dated"
        case .clampedToToday: "clamped-to-today"
        case .unknown: "unknown"
        }
    }

    /// "2024-03-31T01:30:00.250Z" (milliseconds only when there are any).
    static func utcText(_ milliseconds: UnixMilliseconds) -> String {
        var out = ExportTextWriter(capacity: 24)
        out.append(utcMilliseconds: milliseconds)
        return out.text
    }

    private static func milliRounded(_ seconds: Double) -> Double {
        ExportTextWriter.millisecondsRounded(seconds) / 1000
    }
}

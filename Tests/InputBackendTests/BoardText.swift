import StillroomCore

/// A board file with every section, each control on a gpio line; `replace` swaps in a section's body.
func boardText(_ sections: [String: String] = [:], drop: Set<String> = []) -> String {
    let defaults: [(String, String)] = [
        ("board", "chip = pinctrl-bcm2711"),
        ("play", "backend = gpio\nline = GPIO5"),
        ("back", "backend = gpio\nline = GPIO6"),
        ("knob-turn", "backend = gpio\nline-a = GPIO12\nline-b = GPIO13"),
        ("knob-press", "backend = gpio\nline = GPIO16"),
        ("jack", "backend = gpio\nline = GPIO26\nactive = high"),
    ]
    return defaults.filter { !drop.contains($0.0) }
        .map { "[\($0.0)]\n\(sections[$0.0] ?? $0.1)\n" }.joined()
}

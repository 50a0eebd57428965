// Spoken labels: what the interface says, in full or short as the owner chose.

extension Interface {
    func say(_ text: String, _ model: InterfaceModel) -> [InterfaceEffect] {
        model.settings.spokenLabels && !text.isEmpty ? [.speak(text)] : []
    }

    /// Says `text`, or `short` when the owner chose short labels (Settings → Spoken detail).
    func say(_ text: String, short: String, _ model: InterfaceModel) -> [InterfaceEffect] {
        say(model.settings.verbosity == .short ? short : text, model)
    }
}

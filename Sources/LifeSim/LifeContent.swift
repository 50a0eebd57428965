import SystemCalls

/// The recordings a simulated box holds: the test fixtures' 20 s and 120 s sweeps (short, so a year of
/// sittings decodes in seconds) and the bundled chime and tick, which the reminder and the timer play.
enum LifeContent {
    /// The repository the content came from (its keys and board file serve the boxes too).
    nonisolated(unsafe) static var repository = ""

    static func make(in folder: String, repository: String) {
        Self.repository = repository
        let audio = repository + "/Tests/Fixtures/audio/"
        Shell.run("""
            mkdir -p '\(folder)/sessions/sweep' '\(folder)/sessions/long' '\(folder)/sounds' && \
            cp '\(audio)sweep-20s-44k-mono.mp3' '\(folder)/sessions/sweep/audio.mp3' && \
            cp '\(audio)sweep-120s-44k-mono.mp3' '\(folder)/sessions/long/audio.mp3' && \
            cp '\(repository)/Content/sounds/'* '\(folder)/sounds/' && \
            echo '{}' > '\(folder)/sessions/sweep/provenance.json' && echo '{}' > '\(folder)/sessions/long/provenance.json' && \
            printf 'WEBVTT\\n\\n00:00.000 --> 00:20.000\\nA rising sound.\\n' > '\(folder)/sessions/sweep/transcript.vtt' && \
            printf 'WEBVTT\\n\\n00:00.000 --> 02:00.000\\nA long rise.\\n' > '\(folder)/sessions/long/transcript.vtt'
            """)
        let catalog = """
            {"schema": 1, "defaultSession": "sweep", "sessions": [
              {"id": "sweep", "title": "Sweep", "theme": "focus", "description": "A rising test sweep.",
               "durationSeconds": 20.0, "audio": "sessions/sweep/audio.mp3", "transcript": "sessions/sweep/transcript.vtt",
               "license": {"name": "CC0 1.0", "attribution": "Stillroom project"}, "provenance": "sessions/sweep/provenance.json"},
              {"id": "long", "title": "Long sweep", "theme": "breathe", "description": "A two-minute test sweep.",
               "durationSeconds": 120.0, "audio": "sessions/long/audio.mp3", "transcript": "sessions/long/transcript.vtt",
               "license": {"name": "CC0 1.0", "attribution": "Stillroom project"}, "provenance": "sessions/long/provenance.json"}],
             "sounds": [
              {"id": "chime", "audio": "sounds/chime.mp3", "license": {"name": "CC BY 4.0", "attribution": "Stillroom project"},
               "provenance": "sounds/chime.provenance.json", "durationSeconds": 4.2},
              {"id": "tick", "audio": "sounds/tick.mp3", "license": {"name": "CC BY 4.0", "attribution": "Stillroom project"},
               "provenance": "sounds/tick.provenance.json", "durationSeconds": 0.06}]}
            """
        try? Files.replaceAtomically(folder + "/catalog.json", with: Array(catalog.utf8), temporary: folder + "/.catalog.json")
    }
}

import CairoPainter
import StillroomCore
import Testing

/// A cue longer than the transcript screen holds (318 characters, at the largest text size) is read a page
/// at a time, with pango measuring and cairo drawing: every word is on some page, and no page runs under the
/// PLAY strip, whether the knob turns through the pages or the recording moves through them.
@Suite struct TranscriptPagesTests {
    static let sizes = [PixelSize(width: 800, height: 480), PixelSize(width: 480, height: 320)]

    /// The long cue being spoken, at the largest text size.
    static var sample: InterfaceSamples.State {
        InterfaceSamples.states(appearance: .night, textSize: .largest).first { $0.name == "transcript-long-cue" }!
    }

    static var longCueIndex: Int { InterfaceSamples.longCueTranscript.cues.firstIndex { $0.text == InterfaceSamples.longCue }! }

    /// The words of `text`, however pages and lines break it.
    static func words(_ text: String) -> [Substring] { text.split(whereSeparator: \.isWhitespace) }

    @Test(arguments: sizes)
    func theKnobTurnsThroughEveryPageOfALongCue(_ size: PixelSize) throws {
        let painter = try ScenePainter(size: size)
        let builder = InterfaceScene(measurer: painter.textMeasurer)
        let sample = Self.sample
        var model = sample.model
        model.transcriptPages = builder.transcriptPages(sample.interface, model: model, size: size, now: sample.now)
        let pageCount = model.transcriptPages.pageCount(ofCue: Self.longCueIndex)
        #expect(pageCount > 1, "at the largest size the cue does not fit one screen on \(size)")
        // From the cue's first page (where the recording is), a detent at a time, as a reader would.
        var ui = sample.interface
        var read: [Substring] = []
        for page in 0..<pageCount {
            if page > 0 { _ = ui.handle(.scroll(by: 1), model: model, now: sample.now) }
            let place = TranscriptPlace(cue: Self.longCueIndex, page: page)
            #expect(page == 0 ? ui.transcriptAnchor == nil : ui.transcriptAnchor == place)
            let scene = builder.scene(ui, model: model, size: size, now: sample.now)
            InterfaceGoldenTests.expectNothingCut(scene, painter: painter, label: "\(size) page \(page)")
            let shown = scene.nodes.compactMap { node -> String? in
                guard case .text(let run) = node.content, node.id.rawValue == "transcript.cue.\(Self.longCueIndex).page.\(page)" else { return nil }
                return run.text
            }
            #expect(shown.count == 1, "page \(page) is on screen")
            read += shown.flatMap(Self.words)
        }
        #expect(read == Self.words(InterfaceSamples.longCue))
        // One more detent leaves the cue for the next one.
        _ = ui.handle(.scroll(by: 1), model: model, now: sample.now)
        #expect(ui.transcriptAnchor == TranscriptPlace(cue: Self.longCueIndex + 1))
    }

    @Test(arguments: sizes)
    func theRecordingTurnsThePagesWhileTheTranscriptFollows(_ size: PixelSize) throws {
        let painter = try ScenePainter(size: size)
        let builder = InterfaceScene(measurer: painter.textMeasurer)
        let sample = Self.sample
        let cue = InterfaceSamples.longCueTranscript.cues[Self.longCueIndex]
        var lit: [Int] = []
        // Twenty moments across the cue's time, the transcript following the recording.
        for step in 0..<20 {
            var model = sample.model
            model.player.positionSeconds = cue.start.seconds + (cue.end.seconds - cue.start.seconds) * (Double(step) + 0.5) / 20
            let scene = builder.scene(sample.interface, model: model, size: size, now: sample.now)
            InterfaceGoldenTests.expectNothingCut(scene, painter: painter, label: "\(size) at \(model.player.positionSeconds)")
            let bars = scene.nodes.map(\.id.rawValue).filter { $0.hasPrefix("transcript.cue.\(Self.longCueIndex).page.") && $0.hasSuffix(".bar") }
            #expect(bars.count == 1, "one page lit at \(model.player.positionSeconds)")
            if let page = bars.first?.split(separator: ".")[4], let number = Int(page) { lit.append(number) }
            if step < 19 { #expect(scene.nextChange != nil) } // the next page (or cue) is scheduled
        }
        let pages = builder.transcriptPages(sample.interface, model: sample.model, size: size, now: sample.now)
        #expect(Set(lit) == Set(0..<pages.pageCount(ofCue: Self.longCueIndex)), "every page is lit in turn: \(lit)")
        #expect(lit == lit.sorted())
    }
}

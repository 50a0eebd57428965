import CairoPainter
import StillroomCore

let out = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "/tmp/stillroom-samples"
for size in [PixelSize(width: 800, height: 480), PixelSize(width: 480, height: 320)] {
    for appearance in Appearance.allCases {
        for variant in ["playing", "paused", "large"] {
            let tokens = DesignTokens(appearance: appearance, screen: size, largeText: variant == "large")
            var model = PlayerModel(title: "Evening wind-down", themeLabel: "Unwind", elapsed: .seconds(83), duration: .seconds(300),
                                    isPlaying: true, breath: BreathState(phase: .inhale, expansion: 0.6, progress: 0.5))
            if variant == "paused" { model.isPlaying = false; model.notice = "Headphones unplugged \u{2014} paused" ; model.title = "A long slow body scan for the end of a very long day" }
            if variant == "large" { model.title = "Ἀναπνοή · Дыхание · 呼吸 · تنفس" }
            let painter = try ScenePainter(size: size)
            painter.render(PlayerScene.make(model, tokens: tokens))
            try PNGImage.write(painter.frame, to: "\(out)/player-\(size)-\(appearance)-\(variant).png")
        }
    }
}

/* What resampling a minute of speech costs with each of libsamplerate's band-limited converters: the
 * box resamples eSpeak NG's 22,050 Hz to the recording's rate (44.1 or 48 kHz) before mixing
 * (Sources/Resampling). Build and run: bench/speech/run. The input is a minute of noise shaped like
 * speech's level (its content does not change the converter's work, which is per sample). */
#include <samplerate.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(void) {
    const long frames = 22050L * 60;
    float *in = malloc(sizeof(float) * frames), *out = malloc(sizeof(float) * frames * 3);
    unsigned state = 46;
    for (long i = 0; i < frames; i++) { state = state * 1103515245u + 12345u; in[i] = ((state >> 9) / 8388608.0f - 1.0f) * 0.3f; }
    const int types[] = {SRC_SINC_FASTEST, SRC_SINC_MEDIUM_QUALITY, SRC_SINC_BEST_QUALITY};
    const int rates[] = {44100, 48000};
    printf("%-28s %8s %14s\n", "converter", "to (Hz)", "s per minute");
    for (int t = 0; t < 3; t++) {
        for (int r = 0; r < 2; r++) {
            double best = 1e9;
            for (int round = 0; round < 3; round++) {
                SRC_DATA data = {.data_in = in, .input_frames = frames, .data_out = out, .output_frames = frames * 3,
                                 .src_ratio = rates[r] / 22050.0};
                double started = now();
                int code = src_simple(&data, types[t], 1);
                double took = now() - started;
                if (code) { fprintf(stderr, "%s\n", src_strerror(code)); return 1; }
                if (took < best) best = took;
            }
            printf("%-28s %8d %14.3f\n", src_get_name(types[t]), rates[r], best);
        }
    }
    return 0;
}

/**
 * How loud a stream is right now: an AnalyserNode's time-domain samples reduced to their RMS
 * (0 silence .. 1 full scale). The call polls it to show who is speaking; nothing is played
 * through the graph (remote audio plays through an <audio> element).
 */
export class LevelMeter {
  private readonly source: MediaStreamAudioSourceNode;
  private readonly analyser: AnalyserNode;
  private readonly samples: Float32Array<ArrayBuffer>;

  constructor(context: AudioContext, stream: MediaStream) {
    this.source = context.createMediaStreamSource(stream);
    this.analyser = context.createAnalyser();
    this.analyser.fftSize = 1024;
    this.samples = new Float32Array(new ArrayBuffer(this.analyser.fftSize * 4));
    this.source.connect(this.analyser);
  }

  level(): number {
    this.analyser.getFloatTimeDomainData(this.samples);
    let sum = 0;
    for (const sample of this.samples) sum += sample * sample;
    return Math.sqrt(sum / this.samples.length);
  }

  close(): void {
    this.source.disconnect();
  }
}

/**
 * RMS above which a participant counts as speaking: quiet rooms measure about 0.001-0.005 on
 * a typical microphone with noise suppression, speech 0.02-0.2.
 */
export const SPEAKING_LEVEL = 0.01;
/** Speech has gaps between syllables: someone stays "speaking" this long after their last loud sample. */
export const SPEAKING_HOLD_MS = 600;

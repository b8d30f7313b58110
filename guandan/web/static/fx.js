// Motion and sound. A play lands on the table from its seat's side and a tribute card slides
// to its receiver (CSS animations, none under prefers-reduced-motion); short sounds made with
// WebAudio (no sound files), only when the person turns them on (off by default).

import { S } from "./state.js";

let audio = null;

function ctx() {
  if (!audio) {
    const A = window.AudioContext || window.webkitAudioContext;
    if (!A) return null;
    audio = new A();
  }
  if (audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

/** A short tone: frequency (Hz), start offset and length (s), loudness and wave shape. */
function tone(freq, at = 0, len = 0.08, gain = 0.08, type = "triangle") {
  const a = ctx();
  if (!a) return;
  const t0 = a.currentTime + at;
  const o = a.createOscillator();
  const g = a.createGain();
  o.type = type;
  o.frequency.setValueAtTime(freq, t0);
  g.gain.setValueAtTime(0.0001, t0);
  g.gain.exponentialRampToValueAtTime(gain, t0 + 0.01);
  g.gain.exponentialRampToValueAtTime(0.0001, t0 + len);
  o.connect(g).connect(a.destination);
  o.start(t0);
  o.stop(t0 + len + 0.02);
}

const SOUNDS = {
  play: () => tone(660, 0, 0.07),
  bomb: () => { tone(140, 0, 0.25, 0.14, "sawtooth"); tone(90, 0.05, 0.3, 0.12, "square"); },
  pass: () => tone(300, 0, 0.06, 0.04, "sine"),
  turn: () => { tone(880, 0, 0.09, 0.05, "sine"); tone(1175, 0.09, 0.12, 0.05, "sine"); },
  result: () => [523, 659, 784, 1047].forEach((f, i) => tone(f, i * 0.09, 0.16, 0.07)),
};

/** Play one of the page's sounds, if sound is on. */
export function sound(name) {
  if (!S.sound) return;
  try {
    SOUNDS[name]?.();
  } catch {
    // no audio on this device: the game goes on silently
  }
}

/** Sound on: the audio starts from this click (browsers allow it only after a gesture). */
export function unlockSound() {
  if (S.sound) ctx();
}

/** The last event (a play or a pass) as motion and sound. */
export function onEvent() {
  const e = S.lastEvent;
  if (!e) return;
  if (e.kind === "play") {
    const special = ["bomb", "straight_flush", "joker_bomb"].includes(e.play?.kind);
    sound(special ? "bomb" : "play");
    const box = document.querySelector(`#center .table-play[data-seat="${e.seat}"]`);
    if (box) {
      box.classList.remove("landing");
      void box.offsetWidth; // restart the animation
      box.classList.add("landing");
    }
  } else if (e.kind === "pass") {
    sound("pass");
  }
}

let last = { turn: false, result: null };

/** Sounds of the game's state: seat 1's turn comes, a hand ends. */
export function onGame() {
  const g = S.game;
  if (!g) return;
  const turn = !!g.my_turn;
  const result = g.result ? g.result.hand : null;
  if (turn && !last.turn && !S.auto) sound("turn");
  if (result && result !== last.result) sound("result");
  last = { turn, result };
}

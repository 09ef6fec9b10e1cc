/**
 * The bitrates the call publishes within a grant's limits (web/src/call/budget.ts): every layer
 * of a track together stays under its cap, a share leaves the camera only what is left of the
 * member's cap, a phone gets a low layer whenever the cap affords one, and a cap of 0 sends nothing.
 */
import test from 'ava';
import { callBudget, cameraPlan, planBps, videoPlan, CAMERA_SIZE, CAMERA_SMALL, SCREEN_SIZE } from '../../../web/src/call/budget.js';

const GENEROUS = { memberKbps: 6000, shareKbps: 4000, cameraKbps: 800 };

test('a camera sends two layers within its cap: 360p on top, 180p for small tiles and phones', (t) => {
  const { camera, microphone, screen } = callBudget(GENEROUS, false);
  t.is(microphone, 32_000);
  t.is(screen, null);
  t.truthy(camera);
  t.is(planBps(camera), 800_000);
  t.deepEqual([camera!.top.width, camera!.top.height], [CAMERA_SIZE.width, CAMERA_SIZE.height]);
  t.is(camera!.lower.length, 1);
  t.true(camera!.lower[0]!.height < camera!.top.height);
  t.true(camera!.lower[0]!.maxBitrate < camera!.top.maxBitrate);
});

test('a share keeps its audio and its layers within shareKbps, with a low layer for phones', (t) => {
  const { screen, screenAudio } = callBudget(GENEROUS, true);
  t.is(screenAudio, 64_000);
  t.is(planBps(screen) + screenAudio, 4_000_000);
  t.deepEqual([screen!.top.width, screen!.top.height], [SCREEN_SIZE.width, SCREEN_SIZE.height]);
  t.is(screen!.lower[0]!.height, 360);
});

test("the member's cap comes first: microphone, then the share, then the camera from what is left", (t) => {
  const budget = callBudget({ memberKbps: 1500, shareKbps: 1200, cameraKbps: 800 }, true);
  const total = budget.microphone + budget.screenAudio + planBps(budget.screen) + planBps(budget.camera);
  t.true(total <= 1_500_000, `${total} bit/s`);
  t.is(planBps(budget.screen) + budget.screenAudio, 1_200_000);
  t.is(planBps(budget.camera), 1_500_000 - 32_000 - 1_200_000);
});

test('a low camera cap captures one small layer instead of a starved 360p', (t) => {
  const low = cameraPlan(100_000)!;
  t.deepEqual([low.top.width, low.top.height, low.top.maxBitrate], [CAMERA_SMALL.width, CAMERA_SMALL.height, 100_000]);
  t.is(low.lower.length, 0);
  t.is(cameraPlan(800_000)!.top.width, CAMERA_SIZE.width);
  t.is(cameraPlan(49_000), null);
});

test('a cap too small for two layers sends one; too small for one sends none; 0 sends nothing', (t) => {
  t.is(videoPlan(150_000, CAMERA_SIZE, CAMERA_SIZE)!.lower.length, 0);
  t.is(planBps(videoPlan(150_000, CAMERA_SIZE, CAMERA_SIZE)), 150_000);
  t.is(videoPlan(40_000, CAMERA_SIZE, CAMERA_SIZE), null);
  const none = callBudget({ memberKbps: 0, shareKbps: 0, cameraKbps: 0 }, true);
  t.deepEqual(none, { microphone: 0, camera: null, screen: null, screenAudio: 0 });
  // A share too small for its audio beside a picture gives the picture all of it.
  const small = callBudget({ memberKbps: 500, shareKbps: 100, cameraKbps: 0 }, true);
  t.is(small.screenAudio, 0);
  t.is(planBps(small.screen), 100_000);
});

/** The renderer's fake API answers as the engine does: the same shape suite as every transport. */
import { shapeSuite } from '../api/shape-suite.js';
import { fakeApi } from './fake-api.js';

shapeSuite('the renderer’s fake API', async () => ({ api: fakeApi().api, close: async () => {} }));

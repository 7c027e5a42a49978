/**
 * Where the window's connection to the engine stands (browser mode): open, or closed and
 * being opened again, with why it closed in words (1009: a request over the limit of one
 * message). Set by connectApi, shown by ConnectionNote. Electron's IPC never closes: null there.
 */
import { ref } from 'vue';
import type { ConnectionStatus } from '../../core/api/ws-client.js';

export const connectionStatus = ref<ConnectionStatus | null>(null);

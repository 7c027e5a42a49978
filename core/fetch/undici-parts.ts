/**
 * The parts of undici a crawl uses (Client, its errors, buildConnector), imported from their
 * own files rather than from undici's index, which loads fetch, WebSocket, cookies, caches and
 * the rest, and with them Node's own copy of undici: about 130 ms of CPU each time a process
 * starts (every worker of a parallel crawl, every crawlbench command that crawls). Their types
 * are the index's. undici's package has no export map, so these files are its public layout;
 * a crawl test fails at once if a release moves them.
 */
import type * as Undici from 'undici';
// @ts-ignore -- undici's own files have no declarations: typed below as the index's exports
import ClientFile from 'undici/lib/dispatcher/client.js';
// @ts-ignore -- as above
import errorsFile from 'undici/lib/core/errors.js';
// @ts-ignore -- as above
import connectFile from 'undici/lib/core/connect.js';

export const Client = ClientFile as typeof Undici.Client;
export type Client = Undici.Client;
export const undiciErrors = errorsFile as typeof Undici.errors;
export const buildConnector = connectFile as typeof Undici.buildConnector;
export type { Dispatcher } from 'undici';
/** buildConnector's types: its options, a connect function and its callback. */
export type ConnectOptions = Undici.buildConnector.Options;
export type ConnectCallback = Undici.buildConnector.Callback;
export type ConnectFunction = Undici.buildConnector.connector;

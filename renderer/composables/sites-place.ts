/**
 * The Sites view's place (filters, order, page) kept in the address's query, so a reload or
 * Back keeps it, and the page of sites asked of the engine for it: again whenever the place
 * or the crawl changes, and every 10 s while the crawl runs. An address the engine refuses
 * is shown without its bad value, the refusal said with its field's name.
 */
import { computed, onUnmounted, ref, watch, type ComputedRef, type Ref } from 'vue';
import { useRoute, useRouter } from 'vue-router';
import type { SiteSortKey } from '../../core/api/contract.js';
import { placeOf, queryOf, sitesQueryOf, type SitesPlace } from '../lib/sites-query.js';
import { atField, type UserError } from '../lib/user-error.js';
import { useCrawlsStore } from '../stores/crawls.js';
import { useSitesStore } from '../stores/sites.js';
import { onUpgraded } from './after-upgrade.js';

/**
 * The address's fields as the view names them, and what each is without the address's value
 * (an address the engine refuses is shown without it, the refusal said above the table).
 */
const ADDRESS_FIELDS: Record<string, { label: string; without: Partial<SitesPlace>; instead: string }> = {
  offset: { label: 'Offset (offset= in the address)', without: { offset: 0 }, instead: 'the first sites are shown' },
  host: { label: 'Site name contains', without: { host: '', offset: 0 }, instead: 'every site is shown' },
  state: { label: 'State', without: { state: null, offset: 0 }, instead: 'sites in every state are shown' },
  sort: { label: 'Sort', without: { sort: 'pages_fetched', offset: 0 }, instead: 'the sites are shown by pages fetched' },
  descending: { label: 'Order (desc= in the address)', without: { offset: 0 }, instead: 'the first sites are shown' },
  errorsOnly: { label: 'Only sites with errors', without: { errorsOnly: false, offset: 0 }, instead: 'every site is shown' },
};

type Go = (change: Partial<SitesPlace>, keepNote?: boolean) => void;

/** The engine's refusal of the address, said with its field's name; `refused`: one shown without its bad value. */
function useRefusal(hasPage: () => boolean, refused: Ref<UserError | null>, go: Go) {
  const sites = useSitesStore();
  const error = computed<UserError | null>(() => {
    const e = sites.errorOf('sites');
    if (!e) return refused.value;
    const f = e.field ? ADDRESS_FIELDS[e.field] : undefined;
    return f ? atField(e, f.label) : e;
  });
  // The first page of an address the engine refuses: shown without the refused value, so the
  // table is there, and the refusal said with its field's name.
  watch(
    () => sites.errorOf('sites'),
    (e) => {
      const f = e?.field ? ADDRESS_FIELDS[e.field] : undefined;
      if (!e || !f || hasPage()) return;
      const said = atField(e, f.label);
      refused.value = { ...said, text: `${said.text}; ${f.instead}.` };
      sites.dismiss('sites');
      go(f.without, true);
    },
  );
  function dismissError() {
    refused.value = null;
    sites.dismiss('sites');
  }
  return { error, dismissError };
}

/** The host text as typed; it reaches the address (and the engine) after a pause in typing. */
function useTypedHost(place: ComputedRef<SitesPlace>, go: Go) {
  const hostText = ref(place.value.host);
  watch(() => place.value.host, (h) => {
    if (h !== hostText.value.trim()) hostText.value = h;
  });
  let typing: ReturnType<typeof setTimeout> | undefined;
  watch(hostText, (h) => {
    clearTimeout(typing);
    typing = setTimeout(() => {
      if (h.trim() !== place.value.host) go({ host: h.trim(), offset: 0 });
    }, 250);
  });
  onUnmounted(() => clearTimeout(typing));
  return hostText;
}

/** The page of sites for the crawl and place shown, asked again every 10 s while the crawl runs. */
function useSitesLoading(id: () => string | undefined, place: ComputedRef<SitesPlace>, here: () => boolean, refused: Ref<UserError | null>) {
  const crawls = useCrawlsStore();
  const sites = useSitesStore();
  function load() {
    const crawlId = id();
    if (crawlId && here()) void sites.load(crawlId, sitesQueryOf(place.value));
  }
  watch([id, place], load, { immediate: true, deep: true });
  onUpgraded(id, load);
  watch(id, () => (refused.value = null));
  // A running crawl's sites change as it goes: ask again every 10 s (its pages by error code
  // take a scan of the pages until the crawl ends and builds their index: bench/sites).
  let timer: ReturnType<typeof setInterval> | undefined;
  watch(
    () => crawls.byId(id())?.status === 'running',
    (running) => {
      clearInterval(timer);
      if (running) timer = setInterval(load, 10_000);
    },
    { immediate: true },
  );
  onUnmounted(() => clearInterval(timer));
}

/** The Sites view of crawl `id()`: its place in the address, the page shown, and the changes the view's controls make. */
export function useSitesPlace(id: () => string | undefined) {
  const route = useRoute();
  const router = useRouter();
  const sites = useSitesStore();
  const place = computed(() => placeOf(route.query));
  const page = computed(() => (sites.page && sites.page.crawlId === id() ? sites.page : null));
  /** An address refused by the engine and shown without its bad value: the refusal, kept until the place is changed. */
  const refused = ref<UserError | null>(null);
  /** Whether the address is still this view's (not the one being left for). */
  const here = () => route.name === 'sites';
  /** A new place in the address; `keepNote`: a refused address's note stays (it is the one shown without its value). */
  const go: Go = (change, keepNote = false) => {
    if (!keepNote) refused.value = null;
    if (here()) void router.replace({ query: queryOf({ ...place.value, ...change }) });
  };
  const { error, dismissError } = useRefusal(() => page.value !== null, refused, go);
  const hostText = useTypedHost(place, go);
  useSitesLoading(id, place, here, refused);
  function clear() {
    refused.value = null;
    hostText.value = '';
    void router.replace({ query: queryOf({ ...place.value, host: '', state: null, errorsOnly: false, offset: 0 }) });
  }
  const controls = {
    sortBy: (key: string, descending: boolean) => go({ sort: key as SiteSortKey, descending, offset: 0 }),
    toPage: (offset: number) => go({ offset }),
    setState: (e: Event) => {
      const v = (e.target as HTMLSelectElement).value;
      go({ state: v === '' ? null : (v as SitesPlace['state']), offset: 0 });
    },
    setErrors: (e: Event) => go({ errorsOnly: (e.target as HTMLInputElement).checked, offset: 0 }),
    clear,
  };
  const filtered = computed(() => place.value.host !== '' || place.value.state !== null || place.value.errorsOnly);
  return { place, page, error, dismissError, hostText, filtered, ...controls };
}

/**
 * New crawl's form: its fields, the policy chosen and its parameters, the seeds read by the
 * engine as they are typed, the politeness that suits the kind of crawl, the form filled from
 * an earlier crawl ("Crawl again", #/new?again=ID) and what is wrong at each field, from the
 * form's own checks (lib/crawl-request.ts) or from the engine's refusal.
 */
import { computed, nextTick, onBeforeUnmount, onMounted, reactive, ref, watch, type Ref } from 'vue';
import { API_LIMITS } from '../../core/api/limits.js';
import { againForm } from '../lib/crawl-again.js';
import { blankForm, fieldName, isShortW, requestOfForm, type NewCrawlForm } from '../lib/crawl-request.js';
import { atField } from '../lib/user-error.js';
import { useCrawlsStore } from '../stores/crawls.js';
import { useNewCrawlStore } from '../stores/new-crawl.js';
import { crawlReadable } from '../../core/api/contract.js';

type FieldErrors = Record<string, string>;

/** The seed text read by the engine (which knows what a seed is) once typing pauses; an empty one at once. */
function useSeedReading(form: NewCrawlForm) {
  const newCrawl = useNewCrawlStore();
  let timer: ReturnType<typeof setTimeout> | undefined;
  watch(
    () => form.seedText,
    (text) => {
      clearTimeout(timer);
      // An empty text also clears what an earlier visit of this form left in the store.
      if (!text.trim()) void newCrawl.parseSeeds('');
      else timer = setTimeout(() => void newCrawl.parseSeeds(text), 250);
    },
    { immediate: true },
  );
  onBeforeUnmount(() => clearTimeout(timer));
}

/**
 * The demo web lives on this machine: short waits and its own c keep it quick. Real sites get
 * the papers' politeness: 15 s between connections, one page per connection.
 */
function useKindPoliteness(form: NewCrawlForm, fieldErrors: FieldErrors) {
  watch(
    () => form.demo,
    (demo) => {
      form.w = demo ? '0.05' : '15';
      form.c = demo ? '10' : '1';
      delete fieldErrors.w;
    },
  );
}

/** Fills the form from the settings of crawl `again()`, with it as history (see lib/crawl-again.ts); `againFrom`: the crawl filled in. */
function useCrawlAgain(again: () => string | undefined, form: NewCrawlForm, params: Record<string, string>, fieldErrors: FieldErrors, againFrom: Ref<string | null>) {
  const crawls = useCrawlsStore();
  const newCrawl = useNewCrawlStore();
  async function fillFrom(id: string): Promise<void> {
    await Promise.all([newCrawl.loadPolicies(), crawls.loaded ? null : crawls.refresh()]);
    const s = await newCrawl.settingsOf(id);
    if (!s || again() !== id) return;
    const { params: p, ...f } = againForm(s, newCrawl.policies, new Set(crawls.crawls.map((c) => c.id)));
    form.demo = f.demo;
    // The kind's politeness (useKindPoliteness) sets w and c first: the earlier crawl's come after it.
    await nextTick();
    Object.assign(form, f);
    // Seeds of a seed file too long for the box stay a file, as they were imported.
    form.seedFile = f.seedText.length > API_LIMITS.seedTextChars ? { name: `the seeds of ${id}`, bytes: new Blob([f.seedText]).size } : null;
    for (const k of Object.keys(params)) delete params[k];
    Object.assign(params, p);
    for (const k of Object.keys(fieldErrors)) delete fieldErrors[k];
    againFrom.value = id;
  }
  watch(
    again,
    (id) => {
      againFrom.value = null;
      if (id) void fillFrom(id);
    },
    { immediate: true },
  );
}

/** New crawl's form; `again()`: the crawl whose settings fill it, if any. */
export function useNewCrawlForm(again: () => string | undefined) {
  const crawls = useCrawlsStore();
  const newCrawl = useNewCrawlStore();
  onMounted(() => void newCrawl.loadPolicies());
  const form = reactive(blankForm());
  const params = reactive<Record<string, string>>({});
  /** The crawl whose settings the form holds, once they are filled in. */
  const againFrom = ref<string | null>(null);
  const parsed = computed(() => newCrawl.seeds);
  const policy = computed(() => newCrawl.policies.find((p) => p.name === form.policy) ?? null);
  /** The policy's own parameters; an earlier crawl is picked in the history list instead of typed. */
  const policyParams = computed(() => (policy.value?.params ?? []).filter((p) => p.name !== 'history'));
  const takesHistory = computed(() => policy.value?.params.some((p) => p.name === 'history') ?? false);
  const historyChoices = computed(() => crawls.crawls.filter((c) => crawlReadable(c) && c.id !== form.name.trim()));
  /** Errors at fields: from the form's checks when Create is pressed, or from the engine. */
  const fieldErrors = reactive<FieldErrors>({});
  /** The engine's refusal, said with the name of the field it is about (by the form's label). */
  const submitError = computed(() => {
    const e = newCrawl.errorOf('create');
    return e && e.field ? atField(e, fieldName(e.field, policy.value)) : e;
  });
  useSeedReading(form);
  useKindPoliteness(form, fieldErrors);
  useCrawlAgain(again, form, params, fieldErrors, againFrom);
  const problemCount = computed(() => parsed.value?.problemCount ?? parsed.value?.problems.length ?? 0);
  const seedsOk = computed(() => form.demo || (parsed.value !== null && problemCount.value === 0 && parsed.value.urls.length + parsed.value.hosts.length > 0));
  const shortW = computed(() => isShortW(form));
  const invalidCount = computed(() => Object.keys(fieldErrors).length);
  /** The form's own check of a field, else the engine's refusal when it names that field. */
  const err = (name: string) => fieldErrors[name] ?? (submitError.value?.field === name ? submitError.value.text : null);
  /** The request, or null with every problem shown at its field. */
  const buildRequest = () => requestOfForm(form, params, { policyParams: policyParams.value, takesHistory: takesHistory.value }, fieldErrors);
  return { form, params, againFrom, parsed, policyParams, takesHistory, historyChoices, fieldErrors, submitError, problemCount, seedsOk, shortW, invalidCount, err, buildRequest };
}

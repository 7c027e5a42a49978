/**
 * The files New crawl reads: a seed file (refused over its limit with its size, before anything
 * is read or sent; kept as a file when too long for the box, whose seeds are counted like the
 * box's; a shorter one fills the box) and a CA file to trust, read as text.
 */
import { ref } from 'vue';
import { API_LIMITS } from '../../core/api/limits.js';
import type { NewCrawlForm } from '../lib/crawl-request.js';
import { seedFileProblem } from '../lib/request-errors.js';

export function useFormFiles(form: NewCrawlForm) {
  /** Why the file last chosen was not imported (over the limit of a seed file), shown at the field. */
  const seedFileError = ref<string | null>(null);

  async function importFile(e: Event) {
    const input = e.target as HTMLInputElement;
    const file = input.files?.[0];
    if (!file) return;
    // The engine's own check of a seed file's size, in the words uploadSeeds and crawlbench crawl --seeds use.
    seedFileError.value = seedFileProblem(file.name, file.size);
    if (seedFileError.value !== null) {
      input.value = '';
      return;
    }
    const text = await file.text();
    form.seedFile = text.length > API_LIMITS.seedTextChars ? { name: file.name, bytes: file.size } : null;
    form.seedText = text;
    // The same file chosen again after Clear is a change.
    input.value = '';
  }

  /** Back to the box, empty (a seed file kept as a file is put aside). */
  function clearSeedFile() {
    form.seedFile = null;
    form.seedText = '';
  }

  /** The CA file chosen, read as text (the engine checks it is PEM certificates). */
  async function onCaFile(event: Event) {
    const file = (event.target as HTMLInputElement).files?.[0];
    form.caFile = file ? { name: file.name, text: await file.text() } : null;
  }

  return { seedFileError, importFile, clearSeedFile, onCaFile };
}

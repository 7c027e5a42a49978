/**
 * The Results view's evaluation form: the measure to evaluate against as typed (MeasureFields),
 * checked by the engine's own schema before it is sent (a refusal at its field, nothing asked),
 * and an engine refusal of a measure field shown at that field too.
 */
import { reactive, type Ref } from 'vue';
import { blankMeasureForm, MEASURE_FIELD_NAMES, measureFieldsOf } from '../lib/measure-form.js';
import { evaluationFormErrors } from '../lib/request-errors.js';
import type { UserError } from '../lib/user-error.js';
import { useResultsStore } from '../stores/results.js';

const ON_FIELDS = new Set<string>(MEASURE_FIELD_NAMES);

export function useEvaluationForm(crawlId: () => string | undefined, engineError: Ref<UserError | null>) {
  const results = useResultsStore();
  const measure = reactive(blankMeasureForm());
  const problems = reactive<Record<string, string>>({});
  const fieldError = (field: string) => problems[field] ?? (engineError.value?.field === field ? engineError.value.text : null);
  /** True when the engine's error belongs at a field of the form (not in the view's note). */
  const atField = (e: UserError | null) => ON_FIELDS.has(e?.field ?? '');
  function evaluate(): void {
    const id = crawlId();
    if (!id) return;
    for (const k of Object.keys(problems)) delete problems[k];
    const req = measureFieldsOf(measure);
    Object.assign(problems, evaluationFormErrors(req));
    if (Object.keys(problems).length === 0) void results.evaluate(id, req);
  }
  return { measure, fieldError, atField, evaluate };
}

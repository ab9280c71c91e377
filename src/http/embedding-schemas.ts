// Wire schemas of series embeddings: POST /v1/embeddings (its body and answer) and the embedding jobs
// (POST /v1/embedding-jobs and their views), whose body is the same and whose result is exactly the answer
// (docs/api.md, "Embeddings").
import { Type, type Static } from '@fastify/type-provider-typebox';
import { JobLifecycle, JobStatus, Warning } from './schemas.ts';

/** The models embed float32 values: beyond about ±3.4e38 a value is infinite to them. */
export const MAX_EMBED_MAGNITUDE = 1e38;
const EmbedValue = Type.Union([Type.Number({ minimum: -MAX_EMBED_MAGNITUDE, maximum: MAX_EMBED_MAGNITUDE }), Type.Null()]);

const Granularity = Type.Union([Type.Literal('series'), Type.Literal('patch')], {
  description: '"series" (default): one vector per series. "patch": also one vector per patch of `patch_size` consecutive values (chronos: per value) '
    + 'and the model\'s summary token — chronos, chronos-bolt, chronos-2 (tirex gives one vector per series: a 422)',
});

export const EmbeddingsRequest = Type.Object({
  series: Type.Array(Type.Object({
    target: Type.Array(EmbedValue, {
      minItems: 1, contains: Type.Number(),
      description: 'values at regular steps, oldest first; null = missing (masked by the model); at least one number; each within ±1e38. No dates: '
        + 'the models embed values, not timestamps',
    }),
  }, { additionalProperties: false }), { minItems: 1, description: 'the series to embed; embeddings[i] is series i\'s' }),
  model: Type.Optional(Type.String({
    description: 'a model whose library gives embeddings (catalog `embeddings`): chronos, chronos-bolt, chronos-2, tirex, or a private model fine-tuned '
      + 'from one; default: the deployment default_model when it gives them, else the first served one that does',
  })),
  model_size: Type.Optional(Type.String({ description: 'a size of the model; default: its default_size' })),
  granularity: Type.Optional(Granularity),
  context: Type.Optional(Type.Integer({ minimum: 1, description: 'embed at most the last `context` values of each series (default and cap: the size\'s '
    + 'max_context; longer series are cut, with a warning)' })),
}, { additionalProperties: false });

const Vector = Type.Array(Type.Number(), { description: '`dimension` numbers (the model\'s float32 values)' });

export const EmbeddingsResponse = Type.Object({
  model: Type.String(),
  model_size: Type.String(),
  granularity: Granularity,
  dimension: Type.Integer({ description: 'numbers per vector: the encoder\'s width (tirex: its blocks × width)' }),
  patch_size: Type.Integer({ description: 'values per patch of the model (chronos: 1, a token per value)' }),
  context: Type.Integer({ description: 'the most values embedded per series (the request\'s context, capped at max_context)' }),
  embeddings: Type.Array(Type.Object({
    embedding: Type.Array(Type.Number(), {
      description: 'the series\' vector: chronos models, the mean of its patch vectors that hold an observed value (last encoder layer); tirex, '
        + 'tirex-ts\' TiRexEmbedding (every block\'s patch states averaged, L2-normalised per block, concatenated, layer-normed)',
    }),
    embedded_from: Type.Integer({ description: 'position (0-based, in the series as sent) of the first value embedded: its first observed value '
      + 'among its last `context`' }),
    patches: Type.Optional(Type.Array(Type.Union([Vector, Type.Null()]), {
      description: 'granularity patch: one vector per patch, oldest first. Patches end at the series\' last value: the last covers its last '
        + '`patch_size` values, the first starts at or before embedded_from (the model pads it). null: a patch without an observed value (the '
        + 'model masks it)',
    })),
    summary: Type.Optional(Type.Union([Vector, Type.Null()], {
      description: 'granularity patch: the model\'s summary token, which attends to the whole series ([REG] of chronos-bolt and chronos-2, EOS of '
        + 'chronos); null when the checkpoint has none',
    })),
  }), { description: 'embeddings[i]: input series i' }),
  warnings: Type.Array(Warning, { description: 'series cut to the context, a context over max_context' }),
});
export type EmbeddingsAnswer = Static<typeof EmbeddingsResponse>;

const Planned = {
  model: Type.String({ description: 'the model that embeds the series (decided at submit)' }),
  model_size: Type.String(),
  granularity: Granularity,
};

export const EmbeddingJobAccepted = Type.Object({
  job_id: Type.String(),
  status: Type.Literal('queued'),
  ...Planned,
  created_at: Type.String({ format: 'date-time' }),
});

export const EmbeddingJob = Type.Object({
  job_id: Type.String(),
  status: JobStatus,
  ...Planned,
  ...JobLifecycle,
  // once completed: exactly what POST /v1/embeddings answers for the same body
  result: Type.Optional(EmbeddingsResponse),
}, { additionalProperties: false });
export type EmbeddingJobView = Static<typeof EmbeddingJob>;

export const EmbeddingJobList = Type.Object({
  jobs: Type.Array(EmbeddingJob, { description: 'without `result` (GET the job for it)' }),
  next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'pass as ?cursor= for the next page; null on the last page' }),
});

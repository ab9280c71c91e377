// Private (fine-tuned) models: one row per model, owned by one account (migration 009). Every read is
// scoped to the account: another account's model is indistinguishable from none.
import type { Kysely, Selectable } from 'kysely';
import type { PrivateModelsTable, Schema } from './database.ts';

export type PrivateModelRow = Selectable<PrivateModelsTable>;

export async function insertPrivateModel(
  db: Kysely<Schema>, row: { id: string; accountId: string; name: string; baseModel: string; baseSize: string; jobId: string; summary: unknown },
): Promise<void> {
  await db.insertInto('private_models').values({
    id: row.id, account_id: row.accountId, name: row.name, base_model: row.baseModel, base_size: row.baseSize, job_id: row.jobId,
    summary: JSON.stringify(row.summary),
  }).onConflict((oc) => oc.column('id').doNothing()).execute();
}

export async function listPrivateModels(db: Kysely<Schema>, accountId: string): Promise<PrivateModelRow[]> {
  return db.selectFrom('private_models').selectAll().where('account_id', '=', accountId).orderBy('created_at', 'desc').execute();
}

/** The account's model named `idOrName` (its id or its name), or undefined. */
export async function getPrivateModel(db: Kysely<Schema>, accountId: string, idOrName: string): Promise<PrivateModelRow | undefined> {
  return db.selectFrom('private_models').selectAll().where('account_id', '=', accountId)
    .where((eb) => eb.or([eb('id', '=', idOrName), eb('name', '=', idOrName)])).executeTakeFirst();
}

export async function deletePrivateModel(db: Kysely<Schema>, accountId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('private_models').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows ?? 0) > 0;
}

/** Whether any account holds a model (a deployment without any skips the per-request lookup). */
export async function anyPrivateModel(db: Kysely<Schema>): Promise<boolean> {
  return (await db.selectFrom('private_models').select('id').limit(1).executeTakeFirst()) !== undefined;
}

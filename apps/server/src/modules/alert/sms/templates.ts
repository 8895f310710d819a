import { alertMessages, templateVariables, type SmsTemplate } from '@shutu/contracts';
import type { AppContext } from '../../../context.ts';
import { notFound } from '../../../platform/http/errors.ts';

/** SMS templates (spec 3 §3 "SMS template"): the `${var}` of the content are its parameters. */

export const smsMessages = { templateNotFound: '短信模板不存在' } as const;

export async function listSmsTemplates(ctx: AppContext): Promise<SmsTemplate[]> {
  return ctx.db
    .selectFrom('alertSmsTemplate')
    .select(['id', 'templateName', 'templateContent', 'templateParams', 'category'])
    .orderBy('id')
    .limit(10_000)
    .execute() as Promise<SmsTemplate[]>;
}

export async function findSmsTemplate(ctx: AppContext, id: number): Promise<SmsTemplate> {
  const row = await ctx.db
    .selectFrom('alertSmsTemplate')
    .select(['id', 'templateName', 'templateContent', 'templateParams', 'category'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound(alertMessages.smsTemplateRequired);
  return row as SmsTemplate;
}

export async function saveSmsTemplate(ctx: AppContext, input: Omit<SmsTemplate, 'id'> & { id?: number | null }): Promise<SmsTemplate> {
  const values = {
    templateName: input.templateName,
    templateContent: input.templateContent,
    // The parameters are what the content uses: a hand-typed list that disagrees would leave a variable unmapped.
    templateParams: templateVariables(input.templateContent).join(','),
    category: input.category,
  };
  if (input.id) {
    const updated = await ctx.db.updateTable('alertSmsTemplate').set(values).where('id', '=', input.id).returning('id').executeTakeFirst();
    if (!updated) throw notFound(smsMessages.templateNotFound);
    return findSmsTemplate(ctx, input.id);
  }
  const { id } = await ctx.db.insertInto('alertSmsTemplate').values(values).returning('id').executeTakeFirstOrThrow();
  return findSmsTemplate(ctx, id);
}

export async function deleteSmsTemplate(ctx: AppContext, id: number): Promise<void> {
  const result = await ctx.db.deleteFrom('alertSmsTemplate').where('id', '=', id).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw notFound(smsMessages.templateNotFound);
}

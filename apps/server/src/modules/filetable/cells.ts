import * as XLSX from '@e965/xlsx';

/** What the file readers hand on: a row of cells as the file has them, before any column type. */

/** A date or date-time cell of a workbook, as 'YYYY-MM-DD HH:mm:ss'. */
export class SheetDate {
  constructor(readonly text: string) {}
}

export type CellValue = string | number | boolean | SheetDate | null;

export interface DataRow {
  /** Row number in the file as a spreadsheet shows it (the header is row 1 when it is the first line). */
  row: number;
  values: CellValue[];
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** A workbook's date serial (days since 1900, or 1904 when the workbook says so), to the second. */
export function serialDate(serial: number, date1904: boolean): SheetDate | null {
  const d = XLSX.SSF.parse_date_code(serial, { date1904 }) as { y: number; m: number; d: number } | null;
  if (!d) return null;
  const seconds = Math.round((serial - Math.floor(serial)) * 86400) % 86400;
  const [h, m, s] = [Math.floor(seconds / 3600), Math.floor((seconds % 3600) / 60), seconds % 60];
  return new SheetDate(`${pad(d.y, 4)}-${pad(d.m)}-${pad(d.d)} ${pad(h)}:${pad(m)}:${pad(s)}`);
}

/** Whether a number format shows a date or time (SheetJS's own test of the format text). */
export const isDateFormat = (format: string): boolean => Boolean(XLSX.SSF.is_date(format));

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

/**
 * A workbook's date serial (days since 1900, or 1904 when the workbook says so) to the nearest
 * second: 23:59:59.6 is the next day's 00:00:00 (rounding the time apart from the day gave the
 * same day's 00:00:00). The calendar day is SheetJS's (its 1900 leap-year rule included).
 */
export function serialDate(serial: number, date1904: boolean): SheetDate | null {
  return serialDates(date1904)(serial);
}

/** serialDate with the calendar days remembered: a column of dates has few distinct days. */
export function serialDates(date1904: boolean): (serial: number) => SheetDate | null {
  const days = new Map<number, string | null>();
  return (serial) => {
    const total = Math.round(serial * 86400);
    const day = Math.floor(total / 86400);
    let date = days.get(day);
    if (date === undefined) {
      const d = XLSX.SSF.parse_date_code(day, { date1904 }) as { y: number; m: number; d: number } | null;
      date = d ? `${pad(d.y, 4)}-${pad(d.m)}-${pad(d.d)}` : null;
      if (days.size >= 100_000) days.clear();
      days.set(day, date);
    }
    if (date === null) return null;
    const seconds = total - day * 86400;
    return new SheetDate(`${date} ${pad(Math.floor(seconds / 3600))}:${pad(Math.floor((seconds % 3600) / 60))}:${pad(seconds % 60)}`);
  };
}

/** Whether a number format shows a date or time (SheetJS's own test of the format text). */
export const isDateFormat = (format: string): boolean => Boolean(XLSX.SSF.is_date(format));

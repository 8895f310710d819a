/**
 * The filter controls of boards and reports. Each lives in its own file so that a board with a
 * select does not load the date picker's code (lazy-parts.tsx), and the other way round.
 */
export { FilterSelect, type FilterSelectProps, type FilterValue } from './FilterSelect.tsx';
export { FilterDate, type FilterDateProps } from './FilterDate.tsx';

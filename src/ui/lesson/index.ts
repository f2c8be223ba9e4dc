/** The lesson's React components: LessonHub mounts every lesson view; parseLessonHash reads a lesson's address. */
export { LessonHub } from './LessonHub';
export { parseLessonHash } from './links';

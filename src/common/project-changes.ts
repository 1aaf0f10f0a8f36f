/**
 * In-process notice that a project's content changed (publish, edit, delete, rotate), so caches
 * keyed by project (the API response cache, the CDN file cache) can drop their entries at once.
 * Listeners run synchronously after the change committed.
 */
export type ProjectChangeListener = (projectId: number) => void;

export class ProjectChanges {
  private listeners: ProjectChangeListener[] = [];

  subscribe(listener: ProjectChangeListener): void {
    this.listeners.push(listener);
  }

  notify(projectId: number): void {
    for (const listener of this.listeners) listener(projectId);
  }
}

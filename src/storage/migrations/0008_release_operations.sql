CREATE TABLE `channels` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` integer NOT NULL,
	`name` text NOT NULL,
	`slug` text NOT NULL,
	`release_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`release_id`) REFERENCES `releases`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `channels_slug_unique` ON `channels` (`slug`);--> statement-breakpoint
CREATE UNIQUE INDEX `channels_project_name_uq` ON `channels` (`project_id`,`name`);--> statement-breakpoint
CREATE INDEX `channels_release_idx` ON `channels` (`release_id`);--> statement-breakpoint
ALTER TABLE `projects` ADD `publish_approved_only` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `releases` ADD `republished_from` text;--> statement-breakpoint
ALTER TABLE `releases` ADD `scheduled_at` integer;--> statement-breakpoint
ALTER TABLE `releases` ADD `schedule_error` text;--> statement-breakpoint
CREATE INDEX `releases_scheduled_idx` ON `releases` (`scheduled_at`);
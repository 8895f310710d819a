/** What can be subscribed to (spec 1 §3 "Subscription form" dataType). */
export type SubscriptionDataType = 'ppt' | 'visual' | 'report';

export interface SubscriptionDialogProps {
  open: boolean;
  dataType: SubscriptionDataType;
  /** The slideshow or board id. */
  dataId: number;
  /** The subscription name (slideshow or board title): the notification title defaults to it. */
  subTitle: string;
  onClose(): void;
}

/** Placeholder until the subscription dialog lands. */
export function SubscriptionDialog(_props: SubscriptionDialogProps) {
  return null;
}

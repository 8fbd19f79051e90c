export { Badge, type BadgeProps } from './Badge';
export { Button, type ButtonProps } from './Button';
export { Card, type CardProps } from './Card';
export { cn } from './cn';
export { EmptyState, type EmptyStateProps } from './EmptyState';
export { ErrorState, errorMessage, type ErrorStateProps } from './ErrorState';
export { Skeleton } from './Skeleton';
export { Spinner } from './Spinner';
